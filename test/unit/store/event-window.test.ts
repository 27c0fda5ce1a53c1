// EventWindow: which events a window keeps, bounded by count and by estimated bytes, and from
// which resourceVersion a watch can still resume (versions 1..n are pushed with the given sizes).
//   cases 1-7: the count bound alone (no byte bound).
//   cases 8-14: the byte bound: oldest events evicted first, the newest always kept, both bounds at
//               once, and a long run that reuses the arrays.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { EventWindow } from '../../../src/store/event-window.js';
import { ResourceTable } from '../../../src/store/object-table.js';

const source = new ResourceTable('', 'configmaps').ensureCluster('c1');

function obj(rv: number): KubeObject {
  return { metadata: { name: `o${rv}`, resourceVersion: String(rv) } };
}

function after(window: EventWindow, rv: number): number[] {
  const seen: number[] = [];
  window.forEachAfter(rv, (v, _type, object) => {
    expect(object.metadata.resourceVersion).toBe(String(v));
    seen.push(v);
  });
  return seen;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

interface Case {
  readonly name: string;
  readonly maxEvents: number;
  readonly maxBytes?: number;
  /** sizes are the bytes of the pushed events, versions 1, 2, ... in order. */
  readonly sizes: readonly number[];
  readonly from: number;
  readonly resumable: boolean;
  /** want are the versions replayed from max(from, oldestResumable). */
  readonly want: readonly number[];
  /** bytes is what the window reports holding, when the case checks it. */
  readonly bytes?: number;
}

const ones = (n: number): number[] => new Array<number>(n).fill(1);

describe('EventWindow', () => {
  const cases: Case[] = [
    { name: 'not yet full replays everything after rv', maxEvents: 5, sizes: ones(3), from: 1, resumable: true, want: [2, 3] },
    { name: 'full keeps the newest events in order', maxEvents: 3, sizes: ones(7), from: 5, resumable: true, want: [6, 7] },
    { name: 'the version just before the oldest is resumable', maxEvents: 3, sizes: ones(7), from: 4, resumable: true, want: [5, 6, 7] },
    { name: 'older than that is not', maxEvents: 3, sizes: ones(7), from: 3, resumable: false, want: [5, 6, 7] },
    { name: 'the newest version replays nothing', maxEvents: 3, sizes: ones(7), from: 7, resumable: true, want: [] },
    { name: 'count 0 keeps nothing', maxEvents: 0, sizes: ones(4), from: 3, resumable: false, want: [], bytes: 0 },
    { name: 'count 0 can resume from the newest', maxEvents: 0, sizes: ones(4), from: 4, resumable: true, want: [] },
    { name: 'within the byte bound everything is kept', maxEvents: 100, maxBytes: 30, sizes: [10, 10, 10], from: 0, resumable: true, want: [1, 2, 3], bytes: 30 },
    { name: 'past the byte bound the oldest go first', maxEvents: 100, maxBytes: 30, sizes: [10, 10, 10, 10], from: 1, resumable: true, want: [2, 3, 4], bytes: 30 },
    { name: 'a version before the evicted ones is no longer resumable', maxEvents: 100, maxBytes: 30, sizes: [10, 10, 10, 10], from: 0, resumable: false, want: [2, 3, 4] },
    { name: 'one large event evicts several small ones', maxEvents: 100, maxBytes: 25, sizes: [5, 5, 5, 20], from: 2, resumable: true, want: [3, 4], bytes: 25 },
    { name: 'the newest event is kept even when it alone is larger than the bound', maxEvents: 100, maxBytes: 50, sizes: [5, 100], from: 1, resumable: true, want: [2], bytes: 100 },
    { name: 'the count bound applies when it is reached first', maxEvents: 2, maxBytes: 1000, sizes: [10, 10, 10], from: 1, resumable: true, want: [2, 3], bytes: 20 },
    { name: 'a long run of evictions keeps the newest events in order', maxEvents: 100_000, maxBytes: 1500, sizes: ones(5000), from: 3500, resumable: true, want: range(3501, 5000), bytes: 1500 },
  ];
  cases.forEach((c, i) => {
    it(`case ${i + 1}: ${c.name}`, () => {
      const window = new EventWindow({ maxEvents: c.maxEvents, maxBytes: c.maxBytes ?? Number.POSITIVE_INFINITY });
      c.sizes.forEach((bytes, at) => window.push(at + 1, 'ADDED', obj(at + 1), undefined, source, bytes));
      expect(window.canResumeFrom(c.from)).toBe(c.resumable);
      expect(after(window, Math.max(c.from, window.oldestResumable()))).toEqual(c.want);
      if (c.bytes !== undefined) expect(window.bytes).toBe(c.bytes);
    });
  });
});
