import { describe, expect, it } from 'vitest';
import { compareVersions, isNewer, shouldEvict } from '../../../src/overlay/eviction-rule.js';
import { tombstoneEvictedBy, tombstoneHides } from '../../../src/overlay/tombstone-rule.js';
import { numbered } from '../apimachinery/numbered.js';

const v = (resourceVersion: string, uid = 'u1') => ({ uid, resourceVersion });

describe('shouldEvict (the seed table, entry at RV "10")', () => {
  const cases = numbered([
    { name: 'observed RV 9 keeps', entry: v('10'), observed: v('9'), want: false },
    { name: 'observed RV 10 evicts', entry: v('10'), observed: v('10'), want: true },
    { name: 'observed RV 11 evicts', entry: v('10'), observed: v('11'), want: true },
    { name: 'UID mismatch at RV 11 keeps', entry: v('10'), observed: v('11', 'u2'), want: false },
    { name: 'empty entry UID counts as a match', entry: v('10', ''), observed: v('11', 'u2'), want: true },
    { name: 'empty observed UID counts as a match', entry: v('10'), observed: v('10', ''), want: true },
    { name: 'empty entry RV evicts', entry: v(''), observed: v('1'), want: true },
    { name: 'empty observed RV keeps', entry: v('10'), observed: v(''), want: false },
    { name: 'numeric, not lexicographic: 9 < 10', entry: v('10'), observed: v('9'), want: false },
    { name: 'numeric: 100 ≥ 99', entry: v('99'), observed: v('100'), want: true },
    { name: 'leading zeros compare as numbers', entry: v('10'), observed: v('010'), want: true },
    { name: 'non-numeric falls back to strings: "b" ≥ "a"', entry: v('a'), observed: v('b'), want: true },
    { name: 'non-numeric falls back to strings: "a" < "b"', entry: v('b'), observed: v('a'), want: false },
  ]);

  it.each(cases)('case $n: $name', ({ entry, observed, want }) => {
    expect(shouldEvict(entry, observed)).toBe(want);
  });
});

describe('isNewer', () => {
  const cases = numbered([
    { name: '11 is newer than 10', a: v('11'), b: v('10'), want: true },
    { name: '10 is not newer than 10', a: v('10'), b: v('10'), want: false },
    { name: '9 is not newer than 10', a: v('9'), b: v('10'), want: false },
    { name: 'UIDs do not matter', a: v('11', 'u2'), b: v('10'), want: true },
    { name: 'empty is never newer', a: v(''), b: v('1'), want: false },
    { name: 'anything is newer than empty', a: v('1'), b: v(''), want: true },
    { name: 'numeric 10 is newer than 9', a: v('10'), b: v('9'), want: true },
  ]);

  it.each(cases)('case $n: $name', ({ a, b, want }) => {
    expect(isNewer(a, b)).toBe(want);
  });

  it('case 8: compareVersions orders mixed forms as strings', () => {
    expect(compareVersions('10', 'x')).toBe(-1);
    expect(compareVersions('x', 'x')).toBe(0);
  });
});

describe('tombstoneHides (tombstone at RV "10", UID u1)', () => {
  const cases = numbered([
    { name: 'older copy is hidden', copy: v('9'), want: true },
    { name: 'the deleted version itself is hidden', copy: v('10'), want: true },
    { name: 'a newer copy is shown', copy: v('11'), want: false },
    { name: 'an older incarnation is hidden', copy: v('8', 'u0'), want: true },
    { name: 'a newer incarnation (recreate) is shown', copy: v('12', 'u2'), want: false },
    { name: 'a copy without RV is hidden when the UID matches', copy: v(''), want: true },
    { name: 'a copy without RV of another UID is shown', copy: v('', 'u2'), want: false },
  ]);

  it.each(cases)('case $n: $name', ({ copy, want }) => {
    expect(tombstoneHides(v('10'), copy)).toBe(want);
  });

  it('case 8: a tombstone without RV or UID hides anything', () => {
    expect(tombstoneHides(v('', ''), v('99', 'u9'))).toBe(true);
  });
});

describe('tombstoneEvictedBy (tombstone at RV "10", UID u1)', () => {
  const cases = numbered([
    { name: 'deleted, UID unknown, evicts', observed: undefined, deleted: true, want: true },
    { name: 'deleted copy with the same UID evicts', observed: v('10'), deleted: true, want: true },
    { name: 'deleted copy with an empty UID evicts', observed: v('10', ''), deleted: true, want: true },
    { name: 'deleted copy of another UID keeps', observed: v('10', 'u2'), deleted: true, want: false },
    { name: 'a stale copy (RV 9) keeps', observed: v('9'), deleted: false, want: false },
    { name: 'the deleted version (RV 10) keeps', observed: v('10'), deleted: false, want: false },
    { name: 'the object living on (RV 11) evicts', observed: v('11'), deleted: false, want: true },
    { name: 'a recreate with a new UID evicts', observed: v('12', 'u2'), deleted: false, want: true },
  ]);

  it.each(cases)('case $n: $name', ({ observed, deleted, want }) => {
    expect(tombstoneEvictedBy(v('10'), observed, deleted)).toBe(want);
  });
});
