// The durable backends' phase of the system bench: for `local` (SQLite, fsync on) and `etcd` (one
// member started here on free loopback ports with a temporary data directory), a fresh source
// with n widgets and a fresh cachegate whose store is that backend, measured in order:
//   initial sync (with the process's memory before and after it) → disk bytes of the backend's
//   data directory → point reads of random objects, in rounds interleaved with a memory-backend
//   cachegate synced from the same source (the reference the ratio is taken to) → lag (2 s at
//   500 writes/s, then steady 2,000/s) → graceful restart over the same state.
// The point reads come before the lag runs so that both processes have done the same before
// them (a sync, nothing else). With the lag runs first, the durable process had served watches
// and lists the reference had not, and in 2 of 8 local-phase runs it then served every round with
// 35-40% more CPU per read than the reference, on the same read path; with the reads first, 4 of
// 4 runs measured 1.00-1.10x, but a later one had its durable process in that slow mode again
// (0.73x, with the same page faults and context switches as the reference, so the extra CPU is
// work per request): the order makes the comparison fairer, it does not cure that mode.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd } from '../../test/helpers/etcd-cluster.js';
import type { EtcdCluster } from '../../test/helpers/etcd-cluster.js';
import { diskUsage } from '../lib/disk-usage.js';
import type { DiskUsage } from '../lib/disk-usage.js';
import type { LoadResult } from '../lib/load-generator.js';
import { interleavedPointReads, roundRatios } from './point-reads.js';
import type { PointReadLoad, PointReadRounds } from './point-reads.js';
import { startMeasured, startSource } from './processes.js';
import type { MeasuredProcess, Memory, SourceProcess, StoreUnderTest } from './processes.js';
import { copyCount, lagRun } from './replication.js';
import { measureSync, settle } from './memory-phase.js';
import type { MemoryAtRest } from './memory-phase.js';
import type { LagResult, SyncResult } from './replication.js';
import { restartRun } from './restart.js';
import type { RestartResult } from './restart.js';

/** DurableKind names the durable backends the bench measures. */
export type DurableKind = 'local' | 'etcd';

/** DurablePlan is one durable phase. */
export interface DurablePlan {
  readonly backend: DurableKind;
  readonly n: number;
  readonly syncTimeoutMs: number;
  readonly lagSeconds: number;
  readonly pointReads: PointReadLoad;
  /** replicationWorkers overrides the config's default in the measured process. */
  readonly replicationWorkers?: number;
}

/** DurablePhaseResult is everything measured with one durable backend. */
export interface DurablePhaseResult {
  readonly backend: DurableKind;
  readonly n: number;
  readonly avgJsonBytes: number;
  readonly replicationWorkers?: number;
  readonly sync: SyncResult;
  /** memoryBefore and memoryAfter: the measured process right before the CCR is created and once every copy is there (each after a full GC). */
  readonly memoryBefore: Memory;
  readonly memoryAfter: Memory;
  /** rest: the same, at rest (see memory-phase.ts). */
  readonly rest?: MemoryAtRest;
  /** disk: the data directory (local) or the etcd member's data directory, right after the sync. */
  readonly disk: DiskUsage;
  readonly cold: LagResult;
  readonly lag: LagResult;
  readonly pointRead: LoadResult;
  /** memoryPointRead is a memory-backend cachegate's, measured in the rounds between the durable one's. */
  readonly memoryPointRead: LoadResult;
  /** pointReadRatios are each round's durable requests/s over the memory backend's, in round order; their median is the figure. */
  readonly pointReadRatios: readonly number[];
  readonly restart: RestartResult;
}

const LAG_RATE = 2000;
const ETCD_PREFIX = '/cachegate-bench';

/** Storage is a backend's state outside the measured process, and where it lies on disk. */
interface Storage {
  readonly store: StoreUnderTest;
  readonly dataDir: string;
  remove(): Promise<void>;
}

async function openStorage(kind: DurableKind): Promise<Storage> {
  if (kind === 'local') {
    const dataDir = mkdtempSync(join(tmpdir(), 'cachegate-bench-local-'));
    return { store: { backend: 'local', dataDir, fsync: true }, dataDir, remove: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const cluster: EtcdCluster = await startEtcd({ members: 1 });
  const member = cluster.members[0];
  if (!member) throw new Error('etcd started without a member');
  return { store: { backend: 'etcd', endpoints: cluster.endpoints, prefix: ETCD_PREFIX }, dataDir: member.dataDir, remove: () => cluster.stop() };
}

/** runDurablePhase measures one durable backend from a fresh source, cachegate and state. */
export async function runDurablePhase(plan: DurablePlan): Promise<DurablePhaseResult> {
  const step = (what: string): void => console.log(`[${plan.backend} ${plan.n.toLocaleString('en-US')}] ${what}`);
  let source: SourceProcess | undefined;
  let measured: MeasuredProcess | undefined;
  let storage: Storage | undefined;
  try {
    source = await startSource(4096);
    const seeded = await source.request({ type: 'seed', n: plan.n, shape: 'widget' });
    if (seeded.type !== 'seeded') throw new Error(`source answered ${seeded.type} to seed`);
    step(`source seeded in ${(seeded.ms / 1000).toFixed(1)} s`);
    storage = await openStorage(plan.backend);
    const options = { store: storage.store, ...(plan.replicationWorkers === undefined ? {} : { replicationWorkers: plan.replicationWorkers }) };
    const sourceUrl = source.url;
    measured = await startMeasured(sourceUrl, options);
    // At rest too: the point reads come next, and they start with the same memory-pressure GC.
    const { sync, memoryBefore, memoryAfter, rest } = await measureSync(source, measured, plan.n, plan.syncTimeoutMs, true);
    step(sync.ms === undefined ? `sync timed out at ${sync.copies} copies` : `synced in ${(sync.ms / 1000).toFixed(1)} s`);
    const disk = diskUsage(storage.dataDir);
    const [durableReads, memoryReads] = await pointReadsBesideMemory(sourceUrl, measured, plan);
    step('point reads measured');
    const cold = await lagRun(source, measured, plan.n, 500, 2);
    const lag = await lagRun(source, measured, plan.n, LAG_RATE, plan.lagSeconds);
    step(`lag at ${LAG_RATE}/s measured`);
    const restarted = await restartRun(measured, () => startMeasured(sourceUrl, options), plan.n);
    measured = restarted.measured;
    step(`restarted: ready in ${(restarted.restart.readyMs / 1000).toFixed(1)} s, ${restarted.restart.rewritten} copies rewritten`);
    return {
      backend: plan.backend, n: plan.n, avgJsonBytes: seeded.avgJsonBytes, sync, memoryBefore, memoryAfter, ...(rest === undefined ? {} : { rest }), disk, cold, lag, restart: restarted.restart,
      pointRead: durableReads.median, memoryPointRead: memoryReads.median,
      pointReadRatios: roundRatios(durableReads, memoryReads),
      ...(plan.replicationWorkers === undefined ? {} : { replicationWorkers: plan.replicationWorkers }),
    };
  } finally {
    await measured?.stop();
    await source?.stop();
    await storage?.remove();
  }
}

/**
 * pointReadsBesideMemory starts a memory-backend cachegate on the same source (its CCR is there
 * already, so it syncs by itself), waits for all its copies, and measures both in interleaved
 * rounds (see interleavedPointReads); the ratio is the median of the rounds' ratios. The reference
 * is stopped before the restart is measured.
 */
async function pointReadsBesideMemory(sourceUrl: string, measured: MeasuredProcess, plan: DurablePlan): Promise<[PointReadRounds, PointReadRounds]> {
  const reference = await startMeasured(sourceUrl, { store: { backend: 'memory' } });
  try {
    const deadline = performance.now() + plan.syncTimeoutMs;
    while (((await copyCount(reference)) ?? 0) < plan.n) {
      if (performance.now() > deadline) throw new Error('the memory reference did not sync in time');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Both start from a full GC: both have been through a sync, and neither's leftover garbage
    // should fall on the other's rounds.
    await measured.memory();
    await reference.memory();
    await settle();
    const [durable, memory] = await interleavedPointReads([measured, reference], plan.n, plan.pointReads);
    if (!durable || !memory) throw new Error('a point read was not measured');
    return [durable, memory];
  } finally {
    await reference.stop();
  }
}
