// Soak: mixed reads (REST, GraphQL, cache API), writes and watches against a
// running cachegate for SOAK_SECONDS (default 600), printing per interval the requests, errors,
// replication lag p50/p99/max and the server's heap; then heap before / at peak / after the load
// stops. Exits 1 when any request or watch failed.
//
//   npm run bench:soak                                  # starts its own cachegate (as npm start does)
//   SOAK_SECONDS=120 npm run bench:soak
//   CACHEGATE_URL=http://127.0.0.1:8080 npm run bench:soak   # against one already running
//   SOAK_CONFIG=soak.yaml npm run bench:soak            # its own cachegate with this --config
//   (the script itself: tsx bench/soak/soak.ts)
//
// Heap is the server's `nodejs_heap_size_used_bytes` from /metrics. "Before" and "after" are the
// lowest sample over a quiet period; the soak's own cachegate runs with --expose-gc and
// gc-on-signal.ts, and gets a SIGUSR2 (a full GC) before each of those samples, so they show
// live memory. "Peak" is the highest sample under load.

import { freshDataDir } from '../lib/fresh-data-dir.js';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../lib/bench-http.js';
import { SOAK_GVR, SOAK_SCHEMA, STABLE, Tally, startLoad, thingsUrl } from './soak-load.js';

const SECONDS = Number(process.env['SOAK_SECONDS'] ?? 600);
const INTERVALS = 10;
const QUIET_MS = 15_000;
const SAMPLE_MS = 1000;

async function main(): Promise<number> {
  const server = process.env['CACHEGATE_URL'] ? undefined : await startServer();
  const base = process.env['CACHEGATE_URL'] ?? server!.base;
  const collect = server?.collectGarbage ?? (() => undefined);
  try {
    await setup(base);
    const before = await quietHeap(base, collect);
    const tally = new Tally();
    const load = startLoad(base, tally, { writers: 2, readers: 6, writesPerSecond: 40 });
    const peak = await runIntervals(base, tally);
    await load.stop();
    const after = await quietHeap(base, collect);
    console.log(`\nheap used: before ${mib(before)}, peak ${mib(peak)}, after ${mib(after)} (after/before ${(after / before).toFixed(2)})`);
    console.log(`requests ${tally.requests}, errors ${tally.errors}, watch events ${tally.watchEvents}`);
    for (const sample of tally.errorSamples) console.log(`  error: ${sample}`);
    return tally.errors === 0 ? 0 : 1;
  } finally {
    await server?.stop();
  }
}

/** runIntervals prints one row per interval and returns the highest heap sample seen. */
async function runIntervals(base: string, tally: Tally): Promise<number> {
  console.log(`soak: ${SECONDS} s against ${base}\n`);
  console.log('   t(s) | requests | errors | lag p50 ms | lag p99 ms | lag max ms | heap MiB');
  const all: number[] = [];
  let peak = 0;
  let lastRequests = 0;
  let lastErrors = 0;
  for (let i = 1; i <= INTERVALS; i++) {
    const end = Date.now() + (SECONDS * 1000) / INTERVALS;
    let heap = 0;
    while (Date.now() < end) {
      await sleep(Math.min(SAMPLE_MS, end - Date.now()));
      heap = await heapUsed(base);
      peak = Math.max(peak, heap);
    }
    const lags = tally.lags.splice(0).sort((a, b) => a - b);
    all.push(...lags);
    console.log([String(Math.round((i * SECONDS) / INTERVALS)).padStart(7), String(tally.requests - lastRequests).padStart(8),
      String(tally.errors - lastErrors).padStart(6), ...[0.5, 0.99, 1].map((q) => String(quantile(lags, q)).padStart(10)),
      mib(heap).padStart(8)].join(' | '));
    lastRequests = tally.requests;
    lastErrors = tally.errors;
  }
  all.sort((a, b) => a - b);
  console.log(`\nlag over the whole run (${all.length} samples): p50 ${quantile(all, 0.5)} ms, p99 ${quantile(all, 0.99)} ms, max ${quantile(all, 1)} ms`);
  return peak;
}

/** setup creates the CRD, the CCR and the stable objects (tolerating a previous run's). */
async function setup(base: string): Promise<void> {
  const root = `${base}/clusters/root`;
  const { group, version, resource } = SOAK_GVR;
  await ensure(`${root}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${resource}.${group}` },
    spec: { group, scope: 'Cluster', names: { plural: resource, singular: 'thing', kind: 'SoakThing', listKind: 'SoakThingList' },
      versions: [{ name: version, served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
  });
  await ensure(`${root}/apis/cache.kcp.io/v1alpha1/clustercachedresources`, {
    apiVersion: 'cache.kcp.io/v1alpha1', kind: 'ClusterCachedResource', metadata: { name: 'soak-things' }, spec: { group, version, resource },
  });
  for (let i = 0; i < STABLE; i++) await ensure(thingsUrl(base), { metadata: { name: `stable-${i}` }, spec: { i } });
  for (let tries = 0; ; tries++) {
    const res = await fetch(`${base}/v1/schemas/${SOAK_SCHEMA}/objects?limit=1`);
    const body = res.status === 200 ? await res.json() as { metadata: { remainingItemCount?: number } } : undefined;
    if (body && (body.metadata.remainingItemCount ?? 0) >= STABLE - 1) return;
    if (tries > 300) throw new Error('the stable objects were never replicated');
    await sleep(100);
  }
}

async function ensure(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201 && res.status !== 409) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
}

/** quietHeap is the lowest heap sample over a quiet period, each taken just after a full GC when the server allows it. */
async function quietHeap(base: string, collect: () => void): Promise<number> {
  let low = Infinity;
  for (const end = Date.now() + QUIET_MS; Date.now() < end; await sleep(SAMPLE_MS)) {
    collect();
    await sleep(200);
    low = Math.min(low, await heapUsed(base));
  }
  return low;
}

async function heapUsed(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('nodejs_heap_size_used_bytes'));
  if (!line) throw new Error('nodejs_heap_size_used_bytes is not in /metrics');
  return Number(line.split(' ')[1]);
}

/** startServer runs what `npm start` runs, plus a GC hook, on a free port and waits until it is ready. */
async function startServer(): Promise<{ base: string; collectGarbage(): void; stop(): Promise<void> }> {
  const port = await freePort();
  const config = process.env['SOAK_CONFIG'] ? ['--config', process.env['SOAK_CONFIG']] : [];
  const hook = new URL('./gc-on-signal.ts', import.meta.url).pathname;
  const args = ['--expose-gc', '--import', 'tsx', '--import', hook, 'src/main.ts', '--port', String(port), ...config];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: new URL('../..', import.meta.url).pathname, env: { ...process.env, LOG_LEVEL: 'warn', ...freshDataDir() }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200) break;
    if (i > 600) throw new Error('cachegate did not become ready');
    await sleep(100);
  }
  return {
    base,
    collectGarbage: () => void child.kill('SIGUSR2'),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

process.exitCode = await main();
