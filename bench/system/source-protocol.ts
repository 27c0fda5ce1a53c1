// What the orchestrator and the source process (source-process.ts) say to each other over the
// fork() IPC channel, and the machine clock both use to time replication lag across processes.

import type { ObjectShape } from '../lib/bench-objects.js';

/** SOURCE_CLUSTER is the logical cluster the bench objects live in. */
export const SOURCE_CLUSTER = 'root';

/** SourceRequest is what the orchestrator asks of the source process. */
export type SourceRequest =
  | { readonly type: 'seed'; readonly n: number; readonly shape: ObjectShape }
  | { readonly type: 'writes'; readonly n: number; readonly rate: number; readonly seconds: number };

/** SourceReply answers a request (or announces the listener with 'listening'). */
export type SourceReply =
  | { readonly type: 'listening'; readonly url: string }
  | { readonly type: 'seeded'; readonly ms: number; readonly avgJsonBytes: number }
  /** written lists [source resourceVersion, machineClockMs] of every write, for lag matching. */
  | { readonly type: 'written'; readonly writes: ReadonlyArray<readonly [string, number]>; readonly elapsedMs: number }
  | { readonly type: 'failed'; readonly error: string };

/**
 * machineClockMs is the machine's monotonic clock (CLOCK_MONOTONIC, the one process.hrtime reads)
 * in milliseconds: every process on the machine reads the same clock, so a write stamped in the
 * source can be compared with its copy's arrival stamped in the orchestrator. A wall clock rebuilt
 * in each process (timeOrigin + performance.now()) is not: a clock step between the two processes'
 * starts offsets one from the other, and a lag run once measured a p50 below zero.
 */
export function machineClockMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
