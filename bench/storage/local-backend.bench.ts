// Benchmark of the local backend (SQLite through node:sqlite), fsync on and off: commits/s for N
// creates of ~700-byte JSON issued at once and from 64 writers that each wait for their commit,
// the longest batch (how long one flush held the event loop), list time, disk bytes per object,
// and what opening costs (PRAGMA quick_check). Run: npx tsx bench/storage/local-backend.bench.ts
// (env N, default 100000).

import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openLocalBackend } from '../../src/storage/local/local-backend.js';
import type { LocalBackend } from '../../src/storage/local/local-backend.js';
import { benchObject, benchObjectName } from '../lib/bench-objects.js';
import { ReportRows } from '../lib/report-rows.js';

const N = Number(process.env.N ?? 100_000);
const WRITERS = 64;
const LOOPED_COMMITS = Math.min(N, 20_000);
const LIST_RUNS = 5;
const PREFIX = '/registry/bench.cachegate.io/widgets/';

const rows = new ReportRows();

/** Entry is one prepared key and value, built before anything is timed. */
interface Entry {
  readonly key: string;
  readonly value: string;
}

function entries(count: number, cluster: string): Entry[] {
  return Array.from({ length: count }, (_, i) => {
    const { metadata, ...rest } = benchObject('widget', i, cluster);
    return { key: `${PREFIX}${cluster}/${benchObjectName(i)}`, value: JSON.stringify({ ...rest, metadata: { ...metadata, uid: `8f1c2a4e-5b6d-4c3e-9a7f-${String(i).padStart(12, '0')}`, creationTimestamp: '2026-05-01T12:00:00Z' } }) };
  });
}

/** BatchWatch records how long each batch held the event loop. */
function batchWatch(): { readonly onBatch: (stats: { durationMs: number }) => void; summary: () => string } {
  const durations: number[] = [];
  return {
    onBatch: (stats) => durations.push(stats.durationMs),
    summary: () => {
      const sorted = [...durations].sort((a, b) => a - b);
      const median = sorted[sorted.length >> 1] ?? 0;
      return `${sorted.length} batches, median ${median.toFixed(1)} ms, longest ${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
    },
  };
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

function diskBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, file) => sum + statSync(join(dir, file)).size, 0);
}

async function concurrentCreates(backend: LocalBackend, all: readonly Entry[]): Promise<number> {
  const { ms, result } = await timed(() => Promise.all(all.map((entry) => backend.commit({ kind: 'create', ...entry }))));
  if (!result.every((outcome) => outcome.ok)) throw new Error('a create did not hold');
  return ms;
}

async function loopedCreates(backend: LocalBackend, all: readonly Entry[]): Promise<number> {
  let next = 0;
  const writer = async (): Promise<void> => {
    for (let i = next++; i < all.length; i = next++) await backend.commit({ kind: 'create', ...all[i]! });
  };
  const { ms } = await timed(() => Promise.all(Array.from({ length: WRITERS }, writer)));
  return ms;
}

async function benchFsync(fsync: boolean): Promise<void> {
  const label = `fsync ${fsync ? 'on' : 'off'}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'cachegate-bench-local-'));
  try {
    const all = entries(N, 'bulk');
    const jsonBytes = all.reduce((sum, entry) => sum + Buffer.byteLength(entry.value), 0) / all.length;
    const watch = batchWatch();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const backend = await openLocalBackend({ dataDir, fsync, onBatch: watch.onBatch });
    delay.enable();
    const bulkMs = await concurrentCreates(backend, all);
    delay.disable();
    rows.add(`${label}: ${N} concurrent creates`, `${Math.round(N / (bulkMs / 1000))} commits/s (${watch.summary()}; worst event-loop delay ${(delay.max / 1e6).toFixed(1)} ms)`);

    const looped = await loopedCreates(backend, entries(LOOPED_COMMITS, 'looped'));
    rows.add(`${label}: ${LOOPED_COMMITS} creates from ${WRITERS} waiting writers`, `${Math.round(LOOPED_COMMITS / (looped / 1000))} commits/s`);

    const listMs: number[] = [];
    for (let i = 0; i < LIST_RUNS; i++) listMs.push((await timed(() => backend.list(`${PREFIX}bulk/`))).ms);
    rows.add(`${label}: list of ${N}`, `${Math.min(...listMs).toFixed(0)} ms best, ${listMs.sort((a, b) => a - b)[LIST_RUNS >> 1]!.toFixed(0)} ms median`);
    await backend.close();

    const objects = N + LOOPED_COMMITS;
    rows.add(`${label}: disk per object`, `${Math.round(diskBytes(dataDir) / objects)} B (JSON ${Math.round(jsonBytes)} B)`);
    const reopen = await timed(() => openLocalBackend({ dataDir, fsync }));
    await reopen.result.close();
    const db = new DatabaseSync(join(dataDir, 'cachegate.db'));
    const check = await timed(async () => db.prepare('PRAGMA quick_check').all());
    db.close();
    rows.add(`${label}: open of ${objects} objects`, `${reopen.ms.toFixed(0)} ms (of which quick_check ${check.ms.toFixed(0)} ms)`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await benchFsync(true);
await benchFsync(false);
rows.print();
