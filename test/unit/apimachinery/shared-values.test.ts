// SharedValues freezes parsed objects and lets equal records be one object. What a reader
// sees must not change: the same keys in the same order, the same values, everything frozen; and
// only records that are equal as JSON and as JavaScript values are merged.

import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RecordIdentity } from '../../../src/apimachinery/record-identity.js';
import { GENERATION, SharedValues } from '../../../src/apimachinery/shared-values.js';

function parsed<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function pod(name: string): { metadata: { name: string; labels: Record<string, string> }; spec: { containers: Array<{ image: string; ports: Array<{ containerPort: number }> }> } } {
  return parsed({ metadata: { name, labels: { app: 'web', tier: 'frontend' } }, spec: { containers: [{ image: 'registry.example.com/web:1.2.3', ports: [{ containerPort: 8080 }] }] } });
}

describe('SharedValues', () => {
  it('case 1: the result is deep-frozen and equal to the input, keys in their order', () => {
    const input = pod('a');
    const text = JSON.stringify(input);
    const out = new SharedValues().freeze(input);
    expect(JSON.stringify(out)).toBe(text);
    expect(Object.isFrozen(out)).toBe(true);
    expect(Object.isFrozen(out.metadata.labels)).toBe(true);
    expect(Object.isFrozen(out.spec.containers[0]?.ports[0])).toBe(true);
  });

  it('case 2: equal records of two objects become one object, nested ones once their parts repeat; the objects stay apart', () => {
    const shared = new SharedValues();
    const pods = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => shared.freeze(pod(name)));
    const [a, b] = pods;
    expect(b).not.toBe(a);
    expect(b?.metadata).not.toBe(a?.metadata);
    expect(b?.metadata.name).toBe('b');
    expect(b?.metadata.labels).toBe(a?.metadata.labels);
    expect(b?.spec.containers[0]?.ports[0]).toBe(a?.spec.containers[0]?.ports[0]);
    // A record whose entries are short primitives, strings seen before or records seen before is
    // shared as a whole: spec holds containers holds a container holds ports holds a port.
    expect(pods[6]?.spec).toBe(pods[5]?.spec);
    expect(pods[6]?.metadata).not.toBe(pods[5]?.metadata);
  });

  it('case 3: records with the same entries in another order stay apart and keep their order', () => {
    const shared = new SharedValues();
    const a = shared.freeze(parsed({ labels: { x: '1', y: '2' } }));
    const b = shared.freeze(parsed({ labels: { y: '2', x: '1' } }));
    expect(b.labels).not.toBe(a.labels);
    expect(Object.keys(b.labels)).toEqual(['y', 'x']);
  });

  it('case 4: a record of more than sixteen entries is not shared, nor a record holding it', () => {
    const wide = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i]));
    const shared = new SharedValues();
    const a = shared.freeze(parsed({ outer: { wide } }));
    const b = shared.freeze(parsed({ outer: { wide } }));
    expect(b.outer.wide).not.toBe(a.outer.wide);
    expect(b.outer).not.toBe(a.outer);
    expect(b.outer.wide).toEqual(wide);
  });

  it('case 5: a value already frozen is kept as it is, without a walk', () => {
    const shared = new SharedValues();
    const first = shared.freeze(parsed({ labels: { app: 'web' } }));
    const frozen = Object.freeze({ labels: { app: 'web' } });
    const out = shared.freeze(frozen);
    expect(out).toBe(frozen);
    expect(out.labels).not.toBe(first.labels);
    expect(Object.isFrozen(out.labels)).toBe(false);
  });

  it.each([
    { n: 6, a: { v: undefined }, b: {} },
    { n: 7, a: { v: Number.NaN }, b: { v: null } },
    { n: 8, a: { v: -0 }, b: { v: 0 } },
    { n: 9, a: { v: Number.POSITIVE_INFINITY }, b: { v: null } },
  ])('case $n: records JSON would write alike but that differ as values stay apart', ({ a, b }) => {
    const shared = new SharedValues();
    const first = shared.freeze({ r: a });
    const second = shared.freeze({ r: b });
    expect(second.r).not.toBe(first.r);
    expect(Object.keys(second.r)).toEqual(Object.keys(b));
  });

  it('case 10: an own __proto__ key stays an own key and never becomes the prototype', () => {
    const shared = new SharedValues();
    shared.freeze(JSON.parse('{"x":{"polluted":true}}') as unknown);
    const out = shared.freeze(JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['a', '__proto__']);
    expect((out as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('case 11: the tables stay bounded, and a record that keeps repeating stays shared across generations', () => {
    const shared = new SharedValues();
    const first = shared.freeze(parsed({ labels: { app: 'web' } }));
    for (let i = 0; i < 3 * GENERATION; i++) {
      shared.freeze(parsed({ labels: { uid: `u-${i}` } }));
      if (i % 1000 === 0) expect(shared.freeze(parsed({ labels: { app: 'web' } })).labels).toBe(first.labels);
    }
    expect(shared.size).toBeLessThanOrEqual(4 * GENERATION);
  });

  it.each([
    { n: 12, why: 'a string longer than 256 characters', record: { a: 'x'.repeat(257), b: 1 } },
    { n: 15, why: 'more than 64 values in all', record: { a: Array.from({ length: 16 }, (_, i) => i), b: Array.from({ length: 16 }, (_, i) => i), c: Array.from({ length: 16 }, (_, i) => i), d: Array.from({ length: 16 }, (_, i) => i) } },
  ])('case $n: a record holding $why is not shared, nor a record holding it; its small parts still are', ({ record }) => {
    const shared = new SharedValues();
    const outs = [1, 2, 3, 4].map(() => shared.freeze(parsed({ outer: { record, small: { app: 'web' } } })));
    const [, , third, fourth] = outs;
    expect(fourth?.outer.record).not.toBe(third?.outer.record);
    expect(fourth?.outer).not.toBe(third?.outer);
    expect(fourth?.outer.small).toBe(third?.outer.small);
    expect(fourth?.outer.record).toEqual(record);
  });

  it('case 16: a long record of repeated parts is shared, however long its JSON (it is found by a hash, not by its text)', () => {
    const long = { a: 'x'.repeat(200), b: 'y'.repeat(200), c: 'z'.repeat(200) };
    const shared = new SharedValues();
    const outs = [1, 2, 3].map(() => shared.freeze(parsed({ long })));
    expect(outs[2]?.long).toBe(outs[1]?.long);
    expect(outs[2]?.long).toEqual(long);
  });

  it('case 17: two different records whose hashes collide both stay as they are; the first keeps being shared', () => {
    // A birthday search over the 30-bit hash finds two such records among a few tens of thousands.
    const identity = new RecordIdentity({ maxEntries: 16, maxValues: 64, maxString: 256, ownRecord: () => false });
    const seen = new Map<number, number>();
    let pair: [number, number] | undefined;
    for (let i = 0; pair === undefined && i < 1_000_000; i++) {
      const hash = identity.hash({ port: i });
      const earlier = seen.get(hash);
      if (earlier === undefined) seen.set(hash, i);
      else pair = [earlier, i];
    }
    expect(pair).toBeDefined();
    const [first, second] = pair ?? [0, 0];
    const shared = new SharedValues();
    const firsts = [1, 2, 3].map(() => shared.freeze(parsed({ r: { port: first } })));
    const seconds = [1, 2, 3].map(() => shared.freeze(parsed({ r: { port: second } })));
    expect(seconds.map((o) => o.r.port)).toEqual([second, second, second]);
    expect(seconds[2]?.r).not.toBe(firsts[1]?.r);
    expect(shared.freeze(parsed({ r: { port: first } })).r).toBe(firsts[1]?.r);
  });

  it('case 13: an object\'s metadata (it has a uid and a resourceVersion) is never shared, even when equal', () => {
    const shared = new SharedValues();
    const objects = [1, 2, 3].map(() => shared.freeze(parsed({ metadata: { name: 'a', uid: 'u', resourceVersion: '1', labels: { app: 'web' } } })));
    expect(objects[2]?.metadata).not.toBe(objects[1]?.metadata);
    expect(objects[2]?.metadata.labels).toBe(objects[1]?.metadata.labels);
  });

  it('case 14: an object\'s own short strings, which JSON.parse put in V8\'s string table, are kept as copies outside it', () => {
    // Only V8 can say whether a string is internalized: a child process with natives syntax asks it.
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const module = new URL('../../../src/apimachinery/shared-values.ts', import.meta.url).href;
    const script = `
      import { SharedValues } from ${JSON.stringify(module)};
      const internalized = new Function('s', 'return %IsInternalizedString(s)');
      const text = '{"metadata":{"name":"web-1","uid":"u-1","resourceVersion":"1234567","labels":{"app":"web"}},"spec":{"tier":"edge"}}';
      const own = (o) => [o.metadata.name, o.metadata.uid, o.metadata.resourceVersion].map(internalized);
      const frozen = new SharedValues().freeze(JSON.parse(text));
      console.log(JSON.stringify({ parsed: own(JSON.parse(text)), frozen: own(frozen), shared: [frozen.metadata.labels.app, frozen.spec.tier].map(internalized), copy: frozen }));
    `;
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', tsx, '--input-type=module', '-e', script], { encoding: 'utf8' });
    const seen = JSON.parse(out) as { parsed: boolean[]; frozen: boolean[]; shared: boolean[]; copy: unknown };
    expect(seen.parsed).toEqual([true, true, true]);
    expect(seen.frozen).toEqual([false, false, false]);
    // Values that are not an object's own (labels, spec) may repeat across objects: V8 keeps sharing them.
    expect(seen.shared).toEqual([true, true]);
    expect(seen.copy).toEqual({ metadata: { name: 'web-1', uid: 'u-1', resourceVersion: '1234567', labels: { app: 'web' } }, spec: { tier: 'edge' } });
  });
});
