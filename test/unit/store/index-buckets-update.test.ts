// IndexBuckets.update moves an object between index values in time linear in its values: small
// objects through array scans, large ones (thousands of labels) through sets. Both paths must
// leave the same buckets; each case states the buckets it expects after the moves.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { IndexBuckets } from '../../../src/store/index-buckets.js';
import { numbered } from '../apimachinery/numbered.js';

/** VALUES holds each test object's index values, so the index function is a lookup. */
const VALUES = new WeakMap<KubeObject, readonly string[]>();

function obj(name: string, values: readonly string[]): KubeObject {
  const o: KubeObject = { metadata: { name } };
  VALUES.set(o, values);
  return o;
}

const range = (n: number, prefix = 'v'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const byValues = (o: KubeObject): readonly string[] => VALUES.get(o) ?? [];

interface Move {
  /** from and to name versions by index in the case's versions list; undefined = absent. */
  readonly from?: number;
  readonly to?: number;
}

const CASES = numbered<{ name: string; versions: KubeObject[]; moves: Move[]; others?: KubeObject[]; want: Record<string, string[]> }>([
  {
    name: 'small object: one value changes, the kept ones point to the new version',
    versions: [obj('a', ['x', 'y', 'z']), obj('a', ['x', 'y', 'w'])],
    moves: [{ to: 0 }, { from: 0, to: 1 }],
    want: { x: ['a@1'], y: ['a@1'], z: [], w: ['a@1'] },
  },
  {
    name: 'large object (10k values): one value changes, every other value points to the new version',
    versions: [obj('big', range(10_000)), obj('big', [...range(10_000).slice(0, 9_999), 'changed'])],
    moves: [{ to: 0 }, { from: 0, to: 1 }],
    want: { v0: ['big@1'], v5000: ['big@1'], v9998: ['big@1'], v9999: [], changed: ['big@1'] },
  },
  {
    name: 'large object sharing buckets with another object: the other stays, the old version goes',
    versions: [obj('big', range(5_000)), obj('big', range(5_000, 'w'))],
    others: [obj('other', ['v1', 'w1'])],
    moves: [{ to: 0 }, { from: 0, to: 1 }],
    want: { v1: ['other@0'], w1: ['other@0', 'big@1'], v2: [], w2: ['big@1'] },
  },
  {
    name: 'large object with duplicate values is indexed once per value',
    versions: [obj('big', [...range(3_000), ...range(3_000)]), obj('big', [...range(3_001), 'v0'])],
    moves: [{ to: 0 }, { from: 0, to: 1 }, { from: 1 }],
    want: { v0: [], v3000: [] },
  },
  {
    name: 'large object whose values shift and swap places (one removed mid-list, two swapped, one added)',
    versions: [obj('big', range(3_000)), obj('big', ['v1', 'v0', ...range(3_000).slice(2).filter((v) => v !== 'v5'), 'added'])],
    others: [obj('other', ['v5', 'v6'])],
    moves: [{ to: 0 }, { from: 0, to: 1 }],
    want: { v0: ['big@1'], v1: ['big@1'], v5: ['other@0'], v6: ['other@0', 'big@1'], v2999: ['big@1'], added: ['big@1'] },
  },
  {
    name: 'large object deleted: every bucket it was in is emptied',
    versions: [obj('big', range(4_000))],
    moves: [{ to: 0 }, { from: 0 }],
    want: { v0: [], v3999: [] },
  },
  {
    name: 'small to large and back: the paths agree',
    versions: [obj('a', ['v1', 'v2']), obj('a', range(200)), obj('a', ['v2', 'extra'])],
    moves: [{ to: 0 }, { from: 0, to: 1 }, { from: 1, to: 2 }],
    want: { v1: [], v2: ['a@2'], v150: [], extra: ['a@2'] },
  },
]);

describe('IndexBuckets.update', () => {
  it.each(CASES)('case $n: $name', ({ versions, moves, others = [], want }) => {
    const index = new IndexBuckets(byValues);
    const label = new Map<KubeObject, string>();
    versions.forEach((v, i) => label.set(v, `${v.metadata.name}@${i}`));
    others.forEach((o) => label.set(o, `${o.metadata.name}@0`));
    for (const other of others) index.update(undefined, other, byValues(other));
    for (const move of moves) {
      const prev = move.from === undefined ? undefined : versions[move.from];
      const next = move.to === undefined ? undefined : versions[move.to];
      index.update(prev, next, next === undefined ? [] : byValues(next));
    }
    for (const [value, names] of Object.entries(want)) {
      expect(index.objects(value).map((o) => label.get(o)), value).toEqual(names);
    }
  });

  it(`case ${CASES.length + 1}: a large update drops the sorted lists of the values it touched, and only those`, () => {
    const index = new IndexBuckets(byValues);
    const byName = (x: KubeObject, y: KubeObject): number => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? '');
    const other = obj('other', ['v1', 'untouched']);
    const v0 = obj('big', range(100));
    index.update(undefined, other, byValues(other));
    index.update(undefined, obj('zz', ['untouched']), ['untouched']);
    index.update(undefined, v0, byValues(v0));
    const untouched = index.sorted('untouched', byName);
    const before = index.sorted('v1', byName);
    const v1 = obj('big', range(101));
    index.update(v0, v1, byValues(v1));
    expect(index.sorted('untouched', byName)).toBe(untouched);
    const after = index.sorted('v1', byName);
    expect(after).not.toBe(before);
    expect(after).toEqual([v1, other]);
  });
});
