// A memory-only phase of the system bench: a fresh source seeded with n objects of one shape and a
// fresh cachegate (memory backend) that syncs them, with the process's memory right before the CCR
// is created and once every copy is there, each read twice: after a full GC, and at rest (after
// V8's memory-pressure GC, which an idle process gets from V8's memory reducer anyway). The full
// phases measure their memory the same way (measureSync), without the reading at rest, and go on
// to lag and point reads; this one stops there: a memory-pressure GC leaves V8 with a tight
// old-space limit, and the next full GC would fall in a lag run (p99 387 ms at 1M when it did).
//
// Why two readings. Right after a sync, RSS holds the young generation at its grown size (32 MiB
// committed and touched whatever the object count: ~335 B per copy at 100k, 34 B at 1M) and
// old-space pages the sync's garbage left part empty; V8 hands both back once the process is idle.
// The RSS target is checked at rest, where RSS is what the objects cost; the reading right after
// the sync is shown beside it.

import type { ObjectShape } from '../lib/bench-objects.js';
import { startMeasured, startSource } from './processes.js';
import type { MeasuredProcess, Memory, SourceProcess } from './processes.js';
import { syncRun } from './replication.js';
import type { SyncResult } from './replication.js';

/** MemoryPhaseResult is one memory-only phase. */
export interface MemoryPhaseResult {
  readonly n: number;
  readonly shape: ObjectShape;
  readonly avgJsonBytes: number;
  readonly sync: SyncResult;
  readonly memoryBefore: Memory;
  readonly memoryAfter: Memory;
  readonly rest?: MemoryAtRest;
}

/** MemoryAtRest is the process's memory at rest before and after a sync (see memoryAtRest). */
export interface MemoryAtRest {
  readonly before: Memory;
  readonly after: Memory;
}

/** SyncedMemory is a sync with the measured process's memory around it. */
export interface SyncedMemory {
  readonly sync: SyncResult;
  readonly memoryBefore: Memory;
  readonly memoryAfter: Memory;
  /** rest: given atRest, the readings at rest too. */
  readonly rest?: MemoryAtRest;
}

/**
 * measureSync syncs n objects into measured, reading its memory before and after; atRest reads it
 * at rest as well, right after each of those (the process must do no measured work after it).
 */
export async function measureSync(source: SourceProcess, measured: MeasuredProcess, n: number, syncTimeoutMs: number, atRest = false): Promise<SyncedMemory> {
  await settle();
  const memoryBefore = await measured.memory();
  const restBefore = atRest ? await measured.memoryAtRest() : undefined;
  const sync = await syncRun(source, measured, n, syncTimeoutMs);
  await settle();
  const memoryAfter = await measured.memory();
  if (restBefore === undefined) return { sync, memoryBefore, memoryAfter };
  return { sync, memoryBefore, memoryAfter, rest: { before: restBefore, after: await measured.memoryAtRest({ afterBurst: true }) } };
}

/** runMemoryPhase measures the memory per copy of n objects of shape. */
export async function runMemoryPhase(n: number, shape: ObjectShape, syncTimeoutMs: number): Promise<MemoryPhaseResult> {
  let source: SourceProcess | undefined;
  let measured: MeasuredProcess | undefined;
  try {
    source = await startSource(4096);
    const seeded = await source.request({ type: 'seed', n, shape });
    if (seeded.type !== 'seeded') throw new Error(`source answered ${seeded.type} to seed`);
    measured = await startMeasured(source.url, { store: { backend: 'memory' } });
    const synced = await measureSync(source, measured, n, syncTimeoutMs, true);
    console.log(`[${n.toLocaleString('en-US')} ${shape}] ${synced.sync.ms === undefined ? 'sync timed out' : 'synced'}; memory measured`);
    return { n, shape, avgJsonBytes: seeded.avgJsonBytes, ...synced };
  } finally {
    await measured?.stop();
    await source?.stop();
  }
}

/** settle lets the measured process finish what it queued (status writes, GC) before a reading. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1000));
}
