// RecordIdentity hashes a parsed record's whole content and compares two records in full: equal
// records hash alike, and `same` accepts only records a reader could not tell apart (kind, keys in
// order, values all the way down). Records that may not be shared hash to UNSHAREABLE.

import { describe, expect, it } from 'vitest';
import { RecordIdentity, UNSHAREABLE } from '../../../src/apimachinery/record-identity.js';

const identity = (): RecordIdentity =>
  new RecordIdentity({ maxEntries: 4, maxValues: 10, maxString: 16, ownRecord: (r) => 'uid' in r && 'resourceVersion' in r });

const parsed = (text: string): object => JSON.parse(text) as object;

describe('RecordIdentity', () => {
  it.each([
    { n: 1, a: '{"a":1,"b":"x","c":{"d":[1,2,{"e":null}]}}', b: '{"a":1,"b":"x","c":{"d":[1,2,{"e":null}]}}', same: true },
    { n: 2, a: '[true,false,1.5,"s"]', b: '[true,false,1.5,"s"]', same: true },
    { n: 3, a: '{"a":1,"b":2}', b: '{"b":2,"a":1}', same: false },
    { n: 4, a: '{"0":1}', b: '[1]', same: false },
    { n: 5, a: '{"a":{"b":"x"}}', b: '{"a":{"b":"y"}}', same: false },
    { n: 6, a: '{"a":1}', b: '{"a":1,"b":2}', same: false },
    { n: 7, a: '{"a":1,"b":2}', b: '{"a":1}', same: false },
    { n: 8, a: '{"a":[1,2]}', b: '{"a":[1,2,3]}', same: false },
    { n: 9, a: '{"a":"1"}', b: '{"a":1}', same: false },
    { n: 10, a: '{"a":null}', b: '{"a":{}}', same: false },
  ])('case $n: equal records hash alike and are the same; others are not', ({ a, b, same }) => {
    const ids = identity();
    const [left, right] = [parsed(a), parsed(b)];
    expect(ids.same(left, right)).toBe(same);
    expect(ids.same(right, left)).toBe(same);
    if (same) expect(ids.hash(left)).toBe(ids.hash(right));
    for (const record of [left, right]) {
      const hash = ids.hash(record);
      expect(Number.isInteger(hash) && hash >= 0 && hash < 2 ** 30).toBe(true);
    }
  });

  it.each([
    { n: 11, why: 'a string longer than maxString', value: { a: 'x'.repeat(17) } },
    { n: 12, why: 'more entries than maxEntries', value: { a: 1, b: 2, c: 3, d: 4, e: 5 } },
    { n: 13, why: 'more values than maxValues in all', value: { a: [1, 2, 3, 4], b: [1, 2, 3, 4], c: [1, 2] } },
    { n: 14, why: 'an own record inside', value: { meta: { uid: 'u', resourceVersion: '1' } } },
    { n: 15, why: 'undefined', value: { a: undefined } },
    { n: 16, why: 'NaN', value: { a: Number.NaN } },
    { n: 17, why: 'Infinity', value: { a: Number.POSITIVE_INFINITY } },
    { n: 18, why: '-0', value: { a: -0 } },
  ])('case $n: a record holding $why is UNSHAREABLE', ({ value }) => {
    expect(identity().hash(value)).toBe(UNSHAREABLE);
  });

  it('case 19: a record at every limit still hashes', () => {
    expect(identity().hash({ a: [1, 2, 3], b: [1, 2, 3], c: 'x'.repeat(16) })).not.toBe(UNSHAREABLE);
  });

  it('case 20: lastSize is about the record\'s JSON length', () => {
    const ids = identity();
    const record = { name: 'web', port: 8080 };
    ids.hash(record);
    const text = JSON.stringify(record).length;
    expect(ids.lastSize).toBeGreaterThanOrEqual(text / 2);
    expect(ids.lastSize).toBeLessThanOrEqual(text * 2);
  });
});
