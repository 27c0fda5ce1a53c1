// commitHoldsBetween: the system bench's reading of the local backend's commit histogram between
// two scrapes (cumulative buckets, upper bounds in seconds).

import { describe, expect, it } from 'vitest';
import { commitHoldsBetween } from '../../../bench/system/commit-holds.js';

const buckets = (counts: Record<string, number>): Map<number, number> =>
  new Map(Object.entries(counts).map(([le, n]) => [le === '+Inf' ? Infinity : Number(le), n]));

describe('commitHoldsBetween', () => {
  const cases = [
    {
      name: 'case 1: no series (another backend)',
      before: buckets({}), after: buckets({}),
      want: undefined,
    },
    {
      name: 'case 2: every commit of the run under 5 ms',
      before: buckets({ '0.001': 10, '0.005': 12, '0.025': 12, '0.05': 12, '+Inf': 12 }),
      after: buckets({ '0.001': 100, '0.005': 112, '0.025': 112, '0.05': 112, '+Inf': 112 }),
      want: { commits: 100, slow: 0, longestAtMostMs: 5 },
    },
    {
      name: 'case 3: two of the run\'s commits over 25 ms, the longest under 50 ms; earlier slow ones not counted',
      before: buckets({ '0.001': 0, '0.005': 0, '0.025': 0, '0.05': 3, '+Inf': 3 }),
      after: buckets({ '0.001': 40, '0.005': 48, '0.025': 50, '0.05': 55, '+Inf': 55 }),
      want: { commits: 52, slow: 2, longestAtMostMs: 50 },
    },
    {
      name: 'case 4: a commit above the largest bound',
      before: buckets({ '0.025': 0, '1': 0, '+Inf': 0 }),
      after: buckets({ '0.025': 4, '1': 4, '+Inf': 5 }),
      want: { commits: 5, slow: 1, longestAtMostMs: Infinity },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(commitHoldsBetween(c.before, c.after)).toEqual(c.want);
    });
  }
});
