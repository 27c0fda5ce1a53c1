// Properties of continue tokens:
//   case 1: any string given to the read model's decodeCursor gives a cursor or AppError BadRequest;
//   case 2: any string (or a real token with one character changed) given to the store as
//           `continue` gives a page or AppError BadRequest/Expired, never another error;
//   case 3: paging a random store with random limits returns every object exactly once, in order.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/read/page-cursor.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { ListResult } from '../../src/store/store.js';
import { AppError } from '../../src/errors.js';
import { dnsLabel, fcOptions } from './arbitraries.js';

const REF = { cluster: 'root', group: 'example.com', resource: 'things' };
const SCOPE = { group: REF.group, resource: REF.resource };

async function storeWith(names: readonly (readonly [string, string])[]): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (const [namespace, name] of names) {
    await store.create(REF, { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name, namespace } });
  }
  return store;
}

function expectClientError(error: unknown, codes: readonly string[]): void {
  expect(error).toBeInstanceOf(AppError);
  expect(codes).toContain((error as AppError).code);
}

// Tokens that look like ours: base64url JSON with odd members, plus garbage of every kind.
const tokenish = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.base64String().map((s) => s.replace(/=+$/, '')),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
  fc.record({ s: fc.oneof(fc.integer(), fc.double(), fc.string()), o: fc.oneof(fc.integer(), fc.double(), fc.constant(null)) })
    .map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
  fc.record({ c: fc.string(), t: fc.oneof(fc.integer(), fc.double()) }).map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
);

const objectNames = fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'c'), dnsLabel), {
  maxLength: 40,
  selector: ([namespace, name]) => `${namespace}/${name}`,
});

describe('continue token properties', () => {
  it('case 1: decodeCursor gives a cursor or AppError BadRequest', () => {
    fc.assert(
      fc.property(tokenish, (token) => {
        try {
          const cursor = decodeCursor(token);
          expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
        } catch (error) {
          expectClientError(error, ['BadRequest']);
        }
      }),
      fcOptions(1000),
    );
  });

  it('case 2: a garbled continue token gives a page or AppError BadRequest/Expired', async () => {
    const store = await storeWith([['a', 'x'], ['a', 'y'], ['b', 'z']]);
    const first = await store.list(SCOPE, { limit: 1 });
    const real = first.continue ?? '';
    const garbled = fc.tuple(fc.nat(real.length - 1), fc.string({ minLength: 1, maxLength: 1 })).map(([at, c]) => real.slice(0, at) + c + real.slice(at + 1));
    await fc.assert(
      fc.asyncProperty(fc.oneof(tokenish, garbled), fc.integer({ min: -1, max: 5 }), async (token, limit) => {
        try {
          await store.list(SCOPE, { limit, continue: token });
        } catch (error) {
          expectClientError(error, ['BadRequest', 'Expired']);
        }
      }),
      fcOptions(1000),
    );
  });

  it('case 3: paging with random limits returns every object exactly once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(objectNames, fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 8 }), async (names, limits) => {
        const store = await storeWith(names);
        const all = (await store.list(SCOPE)).items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
        const seen: string[] = [];
        let page: ListResult | undefined;
        for (let i = 0; page === undefined || page.continue !== undefined; i++) {
          const limit = limits[i % limits.length] ?? 1;
          page = await store.list(SCOPE, { limit, ...(page === undefined ? {} : { continue: page.continue }) });
          expect(page.items.length).toBeLessThanOrEqual(limit);
          seen.push(...page.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`));
        }
        expect(seen).toEqual(all);
        expect([...all].sort()).toEqual(names.map(([ns, n]) => `${ns}/${n}`).sort());
      }),
      fcOptions(100),
    );
  });
});
