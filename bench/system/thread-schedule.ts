// How a process's main thread was scheduled, from Linux's /proc/<pid>/schedstat (the thread whose
// id is the process's: the event loop's): time it ran on a CPU and time it was runnable but waited
// for one. Read before and after a run, the wait says whether the machine (two cores shared with
// the source and the load generator) held the event loop back, rather than its own work.

import { readFileSync } from 'node:fs';

/** Schedule is the main thread's CPU time and run-queue wait so far, in ms. */
export interface Schedule {
  readonly runMs: number;
  readonly waitMs: number;
}

/** mainThreadSchedule reads the process's main thread; undefined where /proc has no schedstat. */
export function mainThreadSchedule(pid: number): Schedule | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/schedstat`, 'utf8');
  } catch {
    return undefined;
  }
  const [runNs, waitNs] = text.trim().split(/\s+/).map(Number);
  if (runNs === undefined || waitNs === undefined || !Number.isFinite(runNs) || !Number.isFinite(waitNs)) return undefined;
  return { runMs: runNs / 1e6, waitMs: waitNs / 1e6 };
}

/** scheduleBetween is what the thread did between two readings. */
export function scheduleBetween(before: Schedule | undefined, after: Schedule | undefined): Schedule | undefined {
  if (before === undefined || after === undefined) return undefined;
  return { runMs: after.runMs - before.runMs, waitMs: after.waitMs - before.waitMs };
}
