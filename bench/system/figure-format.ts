// How the system bench's figures print their numbers.

import { SLOW_COMMIT_MS } from './commit-holds.js';
import type { CommitHolds } from './commit-holds.js';
import type { Schedule } from './thread-schedule.js';

/** fmt is a whole number with thousands separators. */
export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** ms is a duration in milliseconds, two decimals below 10 ms. */
export const ms = (n: number): string => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;

/** count is an object count as 20k or 1M. */
export const count = (n: number): string => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

/** mib is a byte count in MiB, one decimal. */
export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/**
 * measuredStalls says how long the measured process's event loop stalled during a lag run; how
 * long its main thread ran, and waited for a CPU held by another process; and, on the local
 * backend, how many commits held the loop past SLOW_COMMIT_MS.
 */
export function measuredStalls(l: { readonly loopMaxMs: number; readonly commits?: CommitHolds; readonly schedule?: Schedule }): string {
  const parts = [`the measured process's longest event-loop delay ${ms(l.loopMaxMs)}`];
  const s = l.schedule;
  if (s !== undefined) parts.push(`its main thread ran ${fmt(s.runMs)} ms and waited ${fmt(s.waitMs)} ms for a CPU`);
  const c = l.commits;
  if (c !== undefined) {
    const longest = Number.isFinite(c.longestAtMostMs) ? `≤ ${fmt(c.longestAtMostMs)} ms` : `> ${fmt(1000)} ms`;
    parts.push(`${fmt(c.slow)} of its ${fmt(c.commits)} commits held the loop > ${SLOW_COMMIT_MS} ms (longest ${longest})`);
  }
  return parts.join(', ');
}

/** Figure is one row of the results. */
export interface Figure {
  readonly id: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** text is the value as printed, with whatever detail helps read it. */
  readonly text: string;
  readonly reference?: { readonly name: string; readonly value: number; readonly text: string };
  readonly ratio?: number;
  readonly target?: { readonly text: string; readonly met: boolean };
}
