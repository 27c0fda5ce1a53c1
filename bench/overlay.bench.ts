// Overlay benchmark: two server processes, one with the read-your-writes overlay on and one with
// it off, read by gvr+name in interleaved rounds (goal: at most 5% apart), and the latency of a
// write followed at once by a read of it through the overlay.
// Run: npx tsx bench/overlay.bench.ts   (env SECONDS per run, default 4; ROUNDS, default 3)

import { freshDataDir } from './lib/fresh-data-dir.js';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, post, waitFor } from './lib/bench-http.js';
import { loadGeneratorName, measure } from './lib/load-generator.js';
import type { LoadResult } from './lib/load-generator.js';
import { interleaved, percentile } from './lib/stats.js';

const DURATION = Number(process.env['SECONDS'] ?? 4);
const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const OBJECTS = 200;
const WRITES = 300;
const GROUP_PATH = '/v1/objects/bench.cachegate.io/v1alpha1/instances';

async function main(): Promise<void> {
  const on = await startServer(true);
  const off = await startServer(false);
  try {
    await Promise.all([seed(on.base), seed(off.base)]);
    const url = (base: string): string => `${base}${GROUP_PATH}/obj-${OBJECTS / 2}?cluster=root`;
    const [without, withOverlay] = (await interleaved([
      () => measure({ url: url(off.base) }, 32, DURATION),
      () => measure({ url: url(on.base) }, 32, DURATION),
    ], ROUNDS, (r) => r.rps)) as [LoadResult, LoadResult];
    const latency = await writeThenRead(on.base);
    const apart = Math.abs(withOverlay.rps - without.rps) / without.rps;
    console.log(`overlay bench, ${loadGeneratorName()} with 32 connections, ${DURATION} s per run, median of ${ROUNDS} interleaved rounds, node ${process.version}`);
    console.table([
      { metric: 'point read, overlay off', value: `${fmt(without.rps)} req/s (p99 ${without.p99} ms)`, goal: '', ok: '' },
      { metric: 'point read, overlay on', value: `${fmt(withOverlay.rps)} req/s (p99 ${withOverlay.p99} ms)`, goal: '', ok: '' },
      { metric: 'on vs off', value: `${(100 * apart).toFixed(1)}% apart`, goal: '<= 5%', ok: apart <= 0.05 ? 'yes' : 'NO' },
      { metric: `write (PATCH) then read, ${WRITES} times: write p50 / p99`, value: `${latency.write.p50} / ${latency.write.p99} ms`, goal: '', ok: '' },
      { metric: 'read right after the write: p50 / p99', value: `${latency.read.p50} / ${latency.read.p99} ms`, goal: '', ok: '' },
      { metric: 'reads right after the write that saw it', value: `${latency.fresh} of ${WRITES}`, goal: 'all', ok: latency.fresh === WRITES ? 'yes' : 'NO' },
    ]);
  } finally {
    on.process.kill('SIGTERM');
    off.process.kill('SIGTERM');
  }
}

async function startServer(overlay: boolean): Promise<{ base: string; process: ChildProcess }> {
  const port = await freePort();
  const config = join(mkdtempSync(join(tmpdir(), 'overlay-bench-')), 'config.json');
  writeFileSync(config, JSON.stringify({ port, logLevel: 'warn', cache: { enabled: overlay, gvks: ['bench.cachegate.io/v1alpha1/Instance'], ttl: '2m' } }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--config', config], { env: { ...process.env, ...freshDataDir() }, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/readyz`);
  return { base, process: child };
}

async function seed(base: string): Promise<void> {
  const root = `${base}/clusters/root`;
  await post(`${root}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
    metadata: { name: 'instances.bench.cachegate.io' },
    spec: { group: 'bench.cachegate.io', scope: 'Cluster', names: { plural: 'instances', kind: 'Instance' },
      versions: [{ name: 'v1alpha1', served: true, storage: true }] },
  });
  await post(`${root}/apis/cache.kcp.io/v1alpha1/clustercachedresources`, {
    metadata: { name: 'instances' }, spec: { group: 'bench.cachegate.io', version: 'v1alpha1', resource: 'instances' },
  });
  for (let i = 0; i < OBJECTS; i++) await post(`${base}${GROUP_PATH}?cluster=root`, { metadata: { name: `obj-${i}` }, spec: { size: 'large', i } });
  await waitFor(`${base}/v1/schemas/v1alpha1.instances.bench.cachegate.io/objects?limit=1`,
    async (res) => ((await res.json()) as { metadata: { remainingItemCount?: number } }).metadata.remainingItemCount === OBJECTS - 1);
}

async function writeThenRead(base: string): Promise<{ write: Percentiles; read: Percentiles; fresh: number }> {
  const writes: number[] = [];
  const reads: number[] = [];
  let fresh = 0;
  for (let i = 0; i < WRITES; i++) {
    const url = `${base}${GROUP_PATH}/obj-${i % OBJECTS}?cluster=root`;
    const t0 = performance.now();
    const written = await fetch(url, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { round: i } }) });
    const rv = ((await written.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const t1 = performance.now();
    const read = (await (await fetch(url)).json()) as { metadata: { resourceVersion: string } };
    const t2 = performance.now();
    writes.push(t1 - t0);
    reads.push(t2 - t1);
    if (read.metadata.resourceVersion === rv) fresh++;
  }
  return { write: percentiles(writes), read: percentiles(reads), fresh };
}

interface Percentiles {
  readonly p50: string;
  readonly p99: string;
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5).toFixed(2), p99: percentile(sorted, 0.99).toFixed(2) };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

await main();
