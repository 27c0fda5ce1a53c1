// CompactRecords only changes how V8 lays a record out; what a caller can see must not change:
// the same own keys, in the same order, with the very same values, and no prototype surprises.

import { describe, expect, it } from 'vitest';
import { CompactRecords } from '../../../src/apimachinery/compact-records.js';

const shared = { nested: true };

const cases: ReadonlyArray<{ readonly name: string; readonly record: Record<string, unknown> }> = [
  { name: 'case 1: fewer keys than a plain object holds inside it', record: { a: '1', b: '2' } },
  { name: 'case 2: metadata as a store writes it', record: { name: 'n', uid: 'u', resourceVersion: '7', generation: 1, creationTimestamp: 't', labels: shared, annotations: {} } },
  { name: 'case 3: label keys with slashes and dots', record: { 'app.kubernetes.io/name': 'x', 'cache.kcp.io/a': 'b', c: '', d: 'e', 'f.g/h': 'i' } },
  { name: 'case 4: a value that is undefined stays an own key', record: { a: 1, b: undefined, c: 3, d: 4, e: 5 } },
  { name: 'case 5: index-like keys', record: { 10: 'x', 2: 'y', a: 'z', b: 'w', c: 'v' } },
  { name: 'case 6: more keys than are compacted', record: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])) },
];

describe('CompactRecords', () => {
  for (const { name, record } of cases) {
    it(name, () => {
      const records = new CompactRecords();
      for (let round = 0; round < 2; round++) {
        const out = records.compact(record);
        expect(Object.keys(out)).toEqual(Object.keys(record));
        for (const key of Object.keys(record)) expect(out[key]).toBe(record[key]);
        expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
        expect(JSON.stringify(out)).toBe(JSON.stringify(record));
      }
    });
  }

  it('case 7: a __proto__ key stays a key and never becomes the prototype', () => {
    const record = JSON.parse('{"a":1,"b":2,"c":3,"d":4,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const out = new CompactRecords().compact(record);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['a', 'b', 'c', 'd', '__proto__']);
    expect((out as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('case 8: records of two shapes do not mix their keys', () => {
    const records = new CompactRecords();
    const one = records.compact({ a: 1, b: 2, c: 3, d: 4, e: 5 });
    const two = records.compact({ v: 1, w: 2, x: 3, y: 4, z: 5 });
    expect(Object.keys(one)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(Object.keys(two)).toEqual(['v', 'w', 'x', 'y', 'z']);
  });

  it('case 9b: shapes that share their first keys stay apart, in any order', () => {
    const records = new CompactRecords();
    const shapes = [
      { a: 1, b: 2, c: 3, d: 4, e: 5 },
      { a: 1, b: 2, c: 3, d: 4, f: 5 },
      { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 },
    ];
    for (let round = 0; round < 3; round++) {
      for (const record of round % 2 === 0 ? shapes : [...shapes].reverse()) {
        const out = records.compact(record);
        expect(Object.keys(out)).toEqual(Object.keys(record));
        expect(out).toEqual(record);
      }
    }
  });

  it('case 9: past its bound of templates it still returns equal records', () => {
    const records = new CompactRecords();
    for (let i = 0; i < 1100; i++) {
      const record = { [`a${i}`]: i, b: 1, c: 2, d: 3, e: 4 };
      expect(records.compact(record)).toEqual(record);
    }
  });
});
