// The system benchmark (`npm run bench`): cachegate measured as deployed, as its own
// process with the embedded source off, replicating from a second process (the source) through a
// kubeconfig. One phase per object count (20k and 100k ~760-byte objects, then SCALE_N small
// ones); each phase starts a fresh source and a fresh cachegate and measures, in order:
//   memory before the CCR → initial sync → memory after (heap after a full GC, RSS from /proc)
//   → lag in the first 2 s after the sync (cold) → steady lag at 500 and 2,000 writes/s
//   → point reads of random objects (wrk) → at 20k only: the facade figures with their references.
// Those phases keep their state in memory (store.backend: memory). After the 100k phase, two
// memory-only phases sync 100k widgets and 100k small (~360-byte) objects and read the memory
// right after the sync and at rest (memory-phase.ts); they carry the memory targets. Then one
// phase per durable backend (durable-phase.ts: local, then etcd) with 100k widgets measures sync,
// disk, lag, point reads (as a ratio to the memory backend's at 100k) and a graceful restart.
// Then it prints every figure and writes bench/results/latest.{json,md} and lag-throughput.svg.
// Env: SCALE_N (default 1,000,000; 5,000,000 is the opt-in scale step, with its own targets),
// LAG_SECONDS (8), SECONDS per load run (5), ROUNDS (5),
// POINT_READ_ROUNDS (3), DURABLE_POINT_READ_ROUNDS (5); REPLICATION_WORKERS sets the durable phases' workers.replication;
// PHASES=20000,100000,widget,small,local,etcd runs only those phases (for profiling); their results go to
// bench/results/partial.* (git-ignored), and latest.* keeps the last full run's.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_GVR, benchObjectName } from '../lib/bench-objects.js';
import type { ObjectShape } from '../lib/bench-objects.js';
import { measureFacade } from '../lib/facade-figures.js';
import { loadGeneratorName } from '../lib/load-generator.js';
import { runDurablePhase } from './durable-phase.js';
import type { DurableKind, DurablePhaseResult } from './durable-phase.js';
import { figuresOf, SCALE_TARGETS } from './figures.js';
import type { PhaseResult } from './figures.js';
import { objectsPath, randomPointReads } from './point-reads.js';
import { startMeasured, startSource } from './processes.js';
import type { MeasuredProcess, SourceProcess } from './processes.js';
import { lagRun, SCHEMA } from './replication.js';
import { measureSync, runMemoryPhase } from './memory-phase.js';
import type { MemoryPhaseResult } from './memory-phase.js';
import { machine, printTable, seriesOf, writeResults } from './results.js';
import type { ResultFiles } from './results.js';
import { SOURCE_CLUSTER } from './source-protocol.js';
import { notesOf } from './run-notes.js';

/** DEFAULT_SCALE_N is the scale run's object count in the full run whose results the README shows. */
const DEFAULT_SCALE_N = 1_000_000;
const SCALE_N = Number(process.env['SCALE_N'] ?? DEFAULT_SCALE_N);
/** SCALE_HEAP_MB: a million objects outgrow Node's default heap limit in both processes; 5M need 10 GiB. */
const SCALE_HEAP_MB = Math.max(8192, Math.ceil(SCALE_N / 1_000_000) * 2048);
const HEADLINE_N = 100_000;
const LAG_SECONDS = Number(process.env['LAG_SECONDS'] ?? 8);
const LOAD_SECONDS = Number(process.env['SECONDS'] ?? 5);
// Five interleaved rounds: on a shared 2-core machine single runs of one route swing by ±15%.
const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const POINT_READ_ROUNDS = Number(process.env['POINT_READ_ROUNDS'] ?? 3);
const CONNECTIONS = 32;
const POINT_READS = { connections: CONNECTIONS, seconds: LOAD_SECONDS, rounds: POINT_READ_ROUNDS };
// A backend's point reads are a ratio to the memory backend's, paired round by round: five pairs,
// as one pair on a shared 2-core machine swings by ±15%.
const DURABLE_POINT_READ_ROUNDS = Number(process.env['DURABLE_POINT_READ_ROUNDS'] ?? 5);
const DURABLE: readonly DurableKind[] = ['local', 'etcd'];
const REPLICATION_WORKERS = process.env['REPLICATION_WORKERS'] === undefined ? undefined : Number(process.env['REPLICATION_WORKERS']);
const RATES = [500, 2000] as const;
/** MEMORY_ONLY names the memory-only phases at 100k in PHASES, with their object shapes. */
const MEMORY_ONLY: readonly { readonly phase: string; readonly shape: ObjectShape }[] = [
  { phase: 'widget', shape: 'widget' },
  { phase: 'small', shape: 'small' },
];
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface PhasePlan {
  readonly n: number;
  readonly shape: ObjectShape;
  readonly facade: boolean;
  /** heapMb: old-space limit of each process; undefined = Node's default, as `npm start` runs. */
  readonly sourceHeapMb?: number;
  readonly measuredHeapMb?: number;
  readonly syncTimeoutMs: number;
}

const PLAN: readonly PhasePlan[] = [
  { n: 20_000, shape: 'widget', facade: true, syncTimeoutMs: 60_000 },
  { n: HEADLINE_N, shape: 'widget', facade: false, syncTimeoutMs: 120_000 },
  // The sync may take as long as 5,000 objects/s would (360 s at least).
  { n: SCALE_N, shape: 'small', facade: false, sourceHeapMb: SCALE_HEAP_MB, measuredHeapMb: SCALE_HEAP_MB, syncTimeoutMs: Math.max(360_000, SCALE_N / 5) },
];

async function main(): Promise<void> {
  const t0 = performance.now();
  console.log(`system bench: phases at ${PLAN.map((p) => p.n.toLocaleString('en-US')).join(', ')} objects; ${loadGeneratorName()}; node ${process.version}`);
  const phases: PhaseResult[] = [];
  const durable: DurablePhaseResult[] = [];
  const only = process.env['PHASES']?.split(',');
  const runs = (phase: string): boolean => !only || only.includes(phase);
  const memoryOnly: MemoryPhaseResult[] = [];
  for (const plan of PLAN) {
    if (runs(String(plan.n))) phases.push(await runPhase(plan));
    if (plan.n !== HEADLINE_N) continue;
    for (const m of MEMORY_ONLY) if (runs(m.phase)) memoryOnly.push(await runMemoryPhase(HEADLINE_N, m.shape, plan.syncTimeoutMs));
    for (const backend of DURABLE) if (runs(backend)) durable.push(await runDurablePhase(durablePlan(backend)));
  }
  const figures = figuresOf({ phases, memoryOnly, durable, headlineN: HEADLINE_N });
  const wallSeconds = (performance.now() - t0) / 1000;
  printTable(figures);
  const notes = notesOf({ scaleN: SCALE_N, scaleTargetNs: [...SCALE_TARGETS.keys()], phases: only, replicationWorkers: REPLICATION_WORKERS, extra: process.env['BENCH_NOTE'] });
  const files: ResultFiles = only ? 'partial' : SCALE_N === DEFAULT_SCALE_N ? 'latest' : `scale-${SCALE_N / 1_000_000}m`;
  writeResults(ROOT, {
    date: new Date().toISOString(), machine: machine(), wallSeconds,
    loadGenerator: `${loadGeneratorName()}, ${CONNECTIONS} connections, ${LOAD_SECONDS} s per run; point reads: median of ${POINT_READ_ROUNDS} runs`,
    notes, figures, series: seriesOf(phases),
  }, files);
  const missed = figures.filter((f) => f.target && !f.target.met).length;
  console.log(`system bench done in ${wallSeconds.toFixed(0)} s; ${missed} target(s) not met; results in bench/results/${files}.*`);
}

function durablePlan(backend: DurableKind): Parameters<typeof runDurablePhase>[0] {
  return {
    backend, n: HEADLINE_N, syncTimeoutMs: 300_000, lagSeconds: LAG_SECONDS, pointReads: { ...POINT_READS, rounds: DURABLE_POINT_READ_ROUNDS },
    ...(REPLICATION_WORKERS === undefined ? {} : { replicationWorkers: REPLICATION_WORKERS }),
  };
}

async function runPhase(plan: PhasePlan): Promise<PhaseResult> {
  const label = `[${plan.n.toLocaleString('en-US')}]`;
  const step = (what: string): void => console.log(`${label} ${what}`);
  let source: SourceProcess | undefined;
  let measured: MeasuredProcess | undefined;
  try {
    source = await startSource(plan.sourceHeapMb ?? 4096);
    const seeded = await source.request({ type: 'seed', n: plan.n, shape: plan.shape });
    if (seeded.type !== 'seeded') throw new Error(`source answered ${seeded.type} to seed`);
    step(`source seeded in ${(seeded.ms / 1000).toFixed(1)} s (${Math.round(seeded.avgJsonBytes)} B per object as JSON)`);
    measured = await startMeasured(source.url, { store: { backend: 'memory' }, ...(plan.measuredHeapMb === undefined ? {} : { heapMb: plan.measuredHeapMb }) });
    const { sync, memoryBefore, memoryAfter } = await measureSync(source, measured, plan.n, plan.syncTimeoutMs);
    step(sync.ms === undefined ? `sync timed out at ${sync.copies} copies` : `synced in ${(sync.ms / 1000).toFixed(1)} s`);
    const cold = await lagRun(source, measured, plan.n, 500, 2);
    const lags = [];
    for (const rate of RATES) {
      lags.push(await lagRun(source, measured, plan.n, rate, LAG_SECONDS));
      step(`lag at ${rate}/s measured`);
    }
    const pointRead = await randomPointReads(measured, plan.n, POINT_READS);
    const facade = plan.facade ? await facadeFigures(measured, plan.n) : undefined;
    if (facade) step('facade figures measured');
    return {
      n: plan.n, shape: plan.shape, avgJsonBytes: seeded.avgJsonBytes, seedMs: seeded.ms, sync, memoryBefore, memoryAfter, cold, lags, pointRead,
      ...(facade ? { facade } : {}),
    };
  } finally {
    await measured?.stop();
    await source?.stop();
  }
}

function facadeFigures(measured: MeasuredProcess, n: number): ReturnType<typeof measureFacade> {
  const name = benchObjectName(Math.floor(n / 2));
  return measureFacade({
    base: measured.url,
    objectUrl: `${measured.url}${objectsPath(name)}`,
    graphqlQuery: `{ object(group: "${BENCH_GVR.group}", version: "${BENCH_GVR.version}", resource: "${BENCH_GVR.resource}", name: "${name}", cluster: "${SOURCE_CLUSTER}") }`,
    listUrl: `${measured.url}/v1/schemas/${SCHEMA}/objects?cluster=${SOURCE_CLUSTER}&limit=500`,
    serverPid: measured.pid,
  }, { connections: CONNECTIONS, seconds: LOAD_SECONDS, rounds: ROUNDS });
}

await main();
