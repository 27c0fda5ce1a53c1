// A memory-only phase of the system bench: a fresh source seeded with n objects of one shape and a
// fresh cachegate (memory backend) that syncs them, with the process's memory right before the CCR
// is created and once every copy is there (each after a full GC). The full phases measure their
// memory the same way (measureSync) and go on to lag and point reads; this one stops there, so
// the memory targets can be checked for another object size at little cost.

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
}

/** SyncedMemory is a sync with the measured process's memory around it. */
export interface SyncedMemory {
  readonly sync: SyncResult;
  readonly memoryBefore: Memory;
  readonly memoryAfter: Memory;
}

/** measureSync syncs n objects into measured, reading its memory before and after. */
export async function measureSync(source: SourceProcess, measured: MeasuredProcess, n: number, syncTimeoutMs: number): Promise<SyncedMemory> {
  await settle();
  const memoryBefore = await measured.memory();
  const sync = await syncRun(source, measured, n, syncTimeoutMs);
  await settle();
  const memoryAfter = await measured.memory();
  return { sync, memoryBefore, memoryAfter };
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
    const synced = await measureSync(source, measured, n, syncTimeoutMs);
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
