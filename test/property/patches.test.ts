// Laws of RFC 7386 merge patch and RFC 6902 JSON patch:
//   case 1: merge patch {} leaves any object unchanged;
//   case 2: the merge patch diffed from a to b turns a into b (b without nulls in objects);
//   case 3: merge patch is idempotent and never mutates its (frozen) inputs;
//   case 4: a JSON patch `test` of a value read from the document passes and leaves it unchanged,
//           and a `test` of any other value fails with AppError Invalid;
//   case 5: add then remove of a fresh member is the identity;
//   case 6: any value as a JSON patch document gives a result or AppError BadRequest/Invalid,
//           never a TypeError or RangeError.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../src/apimachinery/deep-equal.js';
import { applyJsonPatch } from '../../src/apimachinery/json-patch.js';
import { formatJsonPointer } from '../../src/apimachinery/json-pointer.js';
import { applyMergePatch } from '../../src/apimachinery/merge-patch.js';
import { deepFreeze, isPlainObject } from '../../src/apimachinery/object-meta.js';
import { AppError } from '../../src/errors.js';
import { fcOptions } from './arbitraries.js';

// Keys that trip naive object code: prototype names and pointer escapes.
const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'c', '0', '-', '') },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'a/b', 'a~b', '~1') },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);

// Objects are built with Object.fromEntries so `__proto__` becomes an own data key, as JSON.parse makes it.
const { json } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('array'), tie('object')),
  leaf: fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 5 })),
  array: fc.array(tie('json'), { maxLength: 3 }),
  object: fc.array(fc.tuple(key, tie('json')), { maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
}));
const jsonObject = json.map((value) => (isPlainObject(value) ? value : { v: value }));

function withoutObjectNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (!isPlainObject(value)) return value;
  const entries = Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutObjectNulls(v)]);
  return Object.fromEntries(entries);
}

// The reference diff: what a client computes to turn a into b.
function mergeDiff(a: unknown, b: unknown): unknown {
  if (!isPlainObject(a) || !isPlainObject(b)) return b;
  const patch: [string, unknown][] = [];
  for (const k of Object.keys(a)) if (!Object.hasOwn(b, k)) patch.push([k, null]);
  for (const [k, v] of Object.entries(b)) {
    if (!Object.hasOwn(a, k)) patch.push([k, v]);
    else if (!jsonEqual(a[k], v)) patch.push([k, mergeDiff(a[k], v)]);
  }
  return Object.fromEntries(patch);
}

// Every pointer into a document, with the value found there.
function pointers(doc: unknown, at: string[] = []): { path: string[]; value: unknown }[] {
  const here = [{ path: at, value: doc }];
  if (Array.isArray(doc)) return here.concat(...doc.map((v, i) => pointers(v, [...at, String(i)])));
  if (isPlainObject(doc)) return here.concat(...Object.entries(doc).map(([k, v]) => pointers(v, [...at, k])));
  return here;
}

function expectClientError(run: () => unknown, codes: readonly string[]): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect(codes).toContain((error as AppError).code);
  }
}

describe('merge patch laws (RFC 7386)', () => {
  it('case 1: merge patch {} is the identity on objects', () => {
    fc.assert(fc.property(jsonObject, (doc) => {
      expect(jsonEqual(applyMergePatch(doc, {}), doc)).toBe(true);
    }), fcOptions());
  });

  it('case 2: the diff-generated merge patch yields the target', () => {
    fc.assert(
      fc.property(jsonObject, jsonObject.map(withoutObjectNulls), (a, b) => {
        expect(jsonEqual(applyMergePatch(a, mergeDiff(a, b)), b)).toBe(true);
      }),
      fcOptions(),
    );
  });

  it('case 3: merge patch is idempotent and leaves frozen inputs alone', () => {
    fc.assert(
      fc.property(json, json, (doc, patch) => {
        const target = deepFreeze(structuredClone(doc));
        const frozenPatch = deepFreeze(structuredClone(patch));
        const once = applyMergePatch(target, frozenPatch);
        expect(jsonEqual(applyMergePatch(once, frozenPatch), once)).toBe(true);
        expect(jsonEqual(target, doc)).toBe(true);
      }),
      fcOptions(),
    );
  });
});

describe('JSON patch laws (RFC 6902)', () => {
  it('case 4: test passes on the value at a pointer and fails on any other value', () => {
    const docAndPointer = jsonObject.chain((doc) => fc.record({ doc: fc.constant(doc), at: fc.constantFrom(...pointers(doc)) }));
    fc.assert(
      fc.property(docAndPointer, json, ({ doc, at }, other) => {
        const path = formatJsonPointer(at.path);
        expect(applyJsonPatch(deepFreeze(doc), [{ op: 'test', path, value: at.value }])).toBe(doc);
        if (jsonEqual(other, at.value)) return;
        expectClientError(() => applyJsonPatch(doc, [{ op: 'test', path, value: other }]), ['Invalid']);
        expect(() => applyJsonPatch(doc, [{ op: 'test', path, value: other }])).toThrow(AppError);
      }),
      fcOptions(),
    );
  });

  it('case 5: add then remove of a fresh member is the identity', () => {
    fc.assert(
      fc.property(jsonObject, key, json, (doc, name, value) => {
        fc.pre(!Object.hasOwn(doc, name));
        const path = formatJsonPointer([name]);
        const patched = applyJsonPatch(deepFreeze(doc), [{ op: 'add', path, value }, { op: 'remove', path }]);
        expect(jsonEqual(patched, doc)).toBe(true);
      }),
      fcOptions(),
    );
  });

  it('case 6: any patch document gives a result or AppError BadRequest/Invalid', () => {
    const pointer = fc.oneof(fc.constantFrom('', '/', '/a', '/a/0', '/a/-', '/b/c', '/~', '/~2', 'a', '/0/0/0'), fc.string({ maxLength: 6 }));
    const operation = fc.oneof(
      fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'nope'), path: pointer, from: pointer, value: json }, { requiredKeys: ['op'] }),
      json,
    );
    const documentArb = fc.oneof({ weight: 4, arbitrary: fc.array(operation, { maxLength: 4 }) }, { weight: 1, arbitrary: json });
    fc.assert(
      fc.property(json, documentArb, (doc, patch) => {
        expectClientError(() => applyJsonPatch(deepFreeze(doc), patch), ['BadRequest', 'Invalid']);
      }),
      fcOptions(1000),
    );
  });
});
