// Point reads of random objects through the facade (GET /v1/objects/<gvr>/<name>), as wrk sends
// them: the read every phase measures, memory and durable backends alike, so the durable
// backends' figures are ratios to the memory backend's at the same object count.

import { BENCH_GVR, BENCH_NAME_FORMAT } from '../lib/bench-objects.js';
import { measure } from '../lib/load-generator.js';
import type { LoadResult } from '../lib/load-generator.js';
import { medianBy } from '../lib/stats.js';
import type { MeasuredProcess } from './processes.js';
import { SOURCE_CLUSTER } from './source-protocol.js';

/** PointReadLoad is how hard and how long to read. */
export interface PointReadLoad {
  readonly connections: number;
  readonly seconds: number;
  /** rounds: runs of `seconds` each; the figure is the median run by requests/s. */
  readonly rounds: number;
}

/**
 * objectsPath is the facade path of one bench object. It reads what the process holds
 * (consistent=false): the backends are compared on their watch cache, and what a consistent read
 * adds on etcd (a revision request) is measured by bench/ha/consistent-reads.bench.ts.
 */
export function objectsPath(name: string): string {
  return `/v1/objects/${BENCH_GVR.group}/${BENCH_GVR.version}/${BENCH_GVR.resource}/${name}?cluster=${SOURCE_CLUSTER}&consistent=false`;
}

/**
 * randomPointReads reads random objects among the n, in rounds (a single run on a shared 2-core
 * machine swings by ±15%), with the server's CPU time per request from /proc.
 */
export async function randomPointReads(measured: MeasuredProcess, n: number, load: PointReadLoad): Promise<LoadResult> {
  const [result] = await interleavedPointReads([measured], n, load);
  if (!result) throw new Error('no point read measured');
  return result.median;
}

/** PointReadRounds is one process's rounds, in order, and its median round by requests/s. */
export interface PointReadRounds {
  readonly median: LoadResult;
  readonly runs: readonly LoadResult[];
}

/**
 * interleavedPointReads measures several processes holding the same n objects round by round,
 * each round visiting them in turn (the order reversed every other round, so neither always runs
 * right after the other's load), so a slow spell of the shared machine falls on all of them alike
 * and their ratio is fair. Each process first serves one unmeasured run: a long-running server has
 * its JIT warm and most objects' JSON text cached, and a cold first round would fall on whichever
 * process the order put first.
 *
 * Before that run every process gets V8's memory-pressure GC, so all start from the same GC state.
 * Without it the state came from the phase's history, not from the process: a durable process
 * that sat idle while the memory backend's reference synced had its young generation shrunk to
 * 16 MiB by V8's memory reducer, and served the reads with 4-10 times as many scavenges as the
 * reference, whose young generation was still at its sync-time 128 MiB; in other runs it ran
 * major GCs during the rounds because its old-generation limit was set lower by a different last
 * full GC. Either made the durable/memory ratio 0.82-0.9x with the same read path in both.
 */
export async function interleavedPointReads(processes: readonly MeasuredProcess[], n: number, load: PointReadLoad): Promise<PointReadRounds[]> {
  const read = (measured: MeasuredProcess, seconds: number): Promise<LoadResult> =>
    measure({ url: measured.url, spread: { pathFormat: objectsPath(BENCH_NAME_FORMAT), count: n } }, load.connections, seconds, measured.pid);
  for (const measured of processes) await measured.reduceMemory();
  for (const measured of processes) await read(measured, load.seconds);
  const runs: LoadResult[][] = processes.map(() => []);
  for (let round = 0; round < load.rounds; round++) {
    const order = [...processes.keys()];
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const measured = processes[i];
      if (measured) runs[i]?.push(await read(measured, load.seconds));
    }
  }
  return runs.map((r) => ({ median: medianBy(r, (x) => x.rps), runs: r }));
}

/** roundRatios are a's requests/s over b's in the same round, in round order. */
export function roundRatios(a: PointReadRounds, b: PointReadRounds): number[] {
  return a.runs.map((run, i) => run.rps / (b.runs[i]?.rps ?? NaN));
}
