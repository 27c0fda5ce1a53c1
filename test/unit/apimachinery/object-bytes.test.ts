// estimatedBytes and deepFreezeMeasured: the heap estimate of a JSON value, and freezing it in
// the same walk.
//   cases 1-7: estimates by shape (the constants approximate V8 on 64-bit Node).
//   case 8: deepFreezeMeasured freezes every object and array, and returns the same estimate.
//   case 9: a frozen subtree shared with another value is walked and counted, not skipped.

import { describe, expect, it } from 'vitest';
import { deepFreezeMeasured, estimatedBytes } from '../../../src/apimachinery/object-bytes.js';

const fields = (n: number): Record<string, number> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

describe('estimatedBytes', () => {
  const cases: [string, unknown, number][] = [
    ['a string is a header plus one byte per character', 'abcd', 16 + 4],
    ['numbers, booleans and null live in their slot', [1, 2.5, true, null], 32 + 4 * 8],
    ['an empty object is its header', {}, 24],
    ['an object of fewer than 128 fields costs 8 bytes a field', fields(127), 24 + 127 * 8],
    ['from 128 fields on an object is a hash table, 48 bytes a field', fields(128), 24 + 128 * 48],
    ['an array is a header plus 8 bytes an element, plus its elements', ['ab', {}], 32 + 2 * 8 + (16 + 2) + 24],
    ['nested values add up', { metadata: { name: 'a' }, data: { blob: 'x'.repeat(1000) } }, 24 + 2 * 8 + (24 + 8 + 17) + (24 + 8 + 1016)],
  ];
  cases.forEach(([name, value, want], i) => {
    it(`case ${i + 1}: ${name}`, () => {
      expect(estimatedBytes(value)).toBe(want);
    });
  });

  it('case 8: deepFreezeMeasured freezes every object and array and returns the same estimate', () => {
    const value = { spec: { ports: [{ port: 80 }], labels: { a: 'b' } } };
    const want = estimatedBytes(value);
    expect(deepFreezeMeasured(value)).toBe(want);
    for (const part of [value, value.spec, value.spec.ports, value.spec.ports[0], value.spec.labels]) expect(Object.isFrozen(part)).toBe(true);
  });

  it('case 9: a frozen subtree shared with another value is counted, not skipped', () => {
    const shared = Object.freeze({ blob: 'x'.repeat(10_000) });
    const first = { metadata: { resourceVersion: '1' }, data: shared };
    const second = { metadata: { resourceVersion: '2' }, data: shared };
    expect(deepFreezeMeasured(first)).toBe(estimatedBytes(second));
    expect(deepFreezeMeasured(second)).toBeGreaterThan(10_000);
  });
});
