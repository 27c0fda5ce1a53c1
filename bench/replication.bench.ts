// Benchmark of replication end to end: the real app on a loopback port, its embedded source
// reached over HTTP by the reflector (as in production), ClusterCachedResources replicating into
// the in-process cache. Measures initial sync throughput, CCR status convergence, replication lag
// at a steady write rate, and heap per replicated object.
// Run: npx tsx --expose-gc bench/replication.bench.ts (env N default 20000, N2 default 100000, N2=0 skips;
// RATE default 500 writes/s, LAG_SECONDS default 10; CPU_PROF=<dir> profiles the first sync and the
// lag phase in-process, writes .cpuprofile files there and prints self/inclusive time summaries).
//
// Source objects are created and updated in-process through app.stores.source (stamped with
// apiVersion, kind and the kcp.io/cluster annotation as the HTTP API would); the replication
// machinery still reads them through the HTTP list and watch of the embedded source.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { request, crd } from '../test/helpers/kube-http.js';
import { CCRS, ccr } from '../test/helpers/replication.js';
import { startTestApp } from '../test/helpers/test-app.js';
import type { TestApp } from '../test/helpers/test-app.js';
import { PhaseProfiler } from './lib/cpu-profile.js';
import { cacheLocation } from '../src/cachedobjects/cache-location.js';
import { ORIGINAL_RESOURCE_VERSION_ANNOTATION } from '../src/cachedobjects/cached-object-annotations.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../src/cachedobjects/cached-object-resource.js';
import type { ObjectKey, ResourceRef, Scope, WatchEvent } from '../src/store/store.js';
import { ReportRows } from './lib/report-rows.js';
import { BENCH_GVR, SELECTED, benchObject, benchObjectName } from './lib/bench-objects.js';
import { percentile } from './lib/stats.js';

const N = Number(process.env.N ?? 20_000);
const N2 = Number(process.env.N2 ?? 100_000);
const WRITE_RATE = Number(process.env.RATE ?? 500);
const LAG_SECONDS = Number(process.env.LAG_SECONDS ?? 10);
const SYNC_GOAL_PER_S = 5_000;
const LAG_P99_GOAL_MS = 50;
/** N2 runs only when the N run predicts it finishes within this. */
const N2_BUDGET_MS = 120_000;
const POLL_MS = 10;
/** CPU_PROF=<dir> profiles the N sync and the lag phase in-process and prints where the time goes. */
const profiler = process.env.CPU_PROF ? new PhaseProfiler(process.env.CPU_PROF) : undefined;
const PROFILE_GROUPS: Readonly<Record<string, RegExp>> = {
  'embedded API server (src/apiserver: list pages, watch stream encoding)': /src\/apiserver\//,
  'fastify / light-my-request / avvio': /(^| )fastify|find-my-way|avvio/,
  'HTTP client (undici, client-node Watch)': /undici|@kubernetes\/client-node/,
  'node: http/net/stream internals': / node:(_http|http|net|internal\/(streams|http|net|stream_base))/,
  'reflector + informer cache (src/kube)': /src\/kube\//,
  'replication controller + reconcile (src/controllers/replication)': /src\/controllers\/replication\//,
  '  CopyStore.find (list by BY_ORIGINAL index)': /^find src\/controllers\/replication\/copy-store/,
  '  CopyStore.desired / wrapCachedObject': /^(desired|wrapCachedObject) /,
  '  cache store create/update (MemoryStore)': /^(create|update) src\/store\/memory-store/,
  'work queue / controller runtime': /src\/controllers\/runtime\//,
  'CCR controller (status writes, reconcile)': /src\/controllers\/clustercachedresources\//,
  'MemoryStore (all)': /src\/store\//,
  '  store list (list-query, snapshots)': /src\/store\/(list-query|list-snapshots)/,
  '  store watch fan-out (watch-hub, watcher)': /src\/store\/(watch-hub|watcher)/,
  'deepFreeze': /^deepFreeze /,
  'JSON.parse (builtin frame)': /^parse /,
  'JSON.stringify (builtin frame)': /^stringify /,
  'structuredClone': /structuredClone/,
  '(garbage collector)': /^\(garbage collector\)/,
  '(idle)': /^\(idle\)/,
  '(program)': /^\(program\)/,
};

const { group: GROUP, version: VERSION, resource: RESOURCE, kind: KIND } = BENCH_GVR;
const CLUSTER = 'root';
const SHARD = 'embedded';
const CCR_NAME = 'widgets';
const SOURCE_REF: ResourceRef = { cluster: CLUSTER, group: GROUP, resource: RESOURCE };
const CACHE_SCOPE: Scope = { cluster: cacheLocation(SHARD, CLUSTER), group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE };
const CCR_KEY: ObjectKey = { cluster: CLUSTER, group: 'cache.kcp.io', resource: 'clustercachedresources', namespace: '', name: CCR_NAME };

const rows = new ReportRows();
const report = rows.add.bind(rows);

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function gcHeap(): number {
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}

async function cacheCount(app: TestApp): Promise<number> {
  return app.app.stores.cache.count(CACHE_SCOPE);
}

interface CcrState {
  readonly phase: string | undefined;
  readonly cache: number | undefined;
  readonly local: number | undefined;
}

async function ccrState(app: TestApp): Promise<CcrState> {
  try {
    const obj = await app.app.stores.source.get(CCR_KEY);
    const status = (obj.status ?? {}) as { phase?: string; resourceCounts?: { cache?: number; local?: number } };
    return { phase: status.phase, cache: status.resourceCounts?.cache, local: status.resourceCounts?.local };
  } catch {
    return { phase: undefined, cache: undefined, local: undefined };
  }
}

interface SyncResult {
  readonly app: TestApp;
  readonly syncMs: number | undefined;
  readonly readyMs: number | undefined;
  readonly perSecond: number;
}

/**
 * syncRun starts an app, creates the CRD and n objects, posts the CCR and waits until the cache
 * holds n copies and the CCR says Ready with resourceCounts.cache == n. The app is left running.
 */
async function syncRun(n: number, timeoutMs: number, measureHeap: boolean, profile = false): Promise<SyncResult> {
  const app = await startTestApp({ logLevel: 'silent', store: { eventWindow: Math.max(200_000, n * 2 + 50_000) } });
  const root = app.clusterUrl(CLUSTER);
  const crdRes = await request('POST', `${root}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd({ group: GROUP, plural: RESOURCE, kind: KIND }));
  if (crdRes.status !== 201) throw new Error(`CRD create failed: ${crdRes.status} ${JSON.stringify(crdRes.body)}`);
  const heapEmpty = measureHeap ? gcHeap() : 0;
  const c0 = performance.now();
  for (let i = 0; i < n; i++) await app.app.stores.source.create(SOURCE_REF, benchObject('widget', i, CLUSTER));
  const createMs = performance.now() - c0;
  const heapSource = measureHeap ? (gcHeap() - heapEmpty) / n : 0;
  const label = `N=${fmt(n)}`;
  report(`[${label}] create source objects (in-process store.create)`, `${fmt((n / createMs) * 1000)}/s (${(createMs / 1000).toFixed(1)} s)`);
  let jsonBytes = 0;
  for (const obj of (await app.app.stores.source.list(SOURCE_REF)).items) jsonBytes += Buffer.byteLength(JSON.stringify(obj));
  const avgJson = jsonBytes / n;
  if (measureHeap) {
    report(`[${label}] avg source JSON size`, `${fmt(avgJson)} B`, '~700 B');
    report(`[${label}] heap per object in the embedded source store (for comparison)`, `${fmt(heapSource)} B (${(heapSource / avgJson).toFixed(2)}x JSON)`);
  }
  // Let the reflectors and controllers settle before the baseline.
  await sleep(200);
  const heapBefore = measureHeap ? gcHeap() : 0;

  // A synchronous cache watch times the first and the last copy exactly, even while the event
  // loop is too busy for the poll below to run; the loop-delay monitor shows how busy it is.
  let t0 = 0;
  let added = 0;
  let firstAddMs: number | undefined;
  let lastAddMs: number | undefined;
  const copies = await app.app.stores.cache.watch(CACHE_SCOPE, { resourceVersion: await app.app.stores.cache.resourceVersion() }, (event: WatchEvent) => {
    if (event.type !== 'ADDED') return;
    added++;
    const at = performance.now() - t0;
    firstAddMs ??= at;
    if (added === n) lastAddMs = at;
  });
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  // A client in a worker thread (its own event loop) probes /livez back to back: what the stall means to API users.
  const prober = startProber(`${app.url}/livez`);
  if (profile) await profiler?.start();
  t0 = performance.now();
  const res = await request('POST', `${root}${CCRS}`, ccr(CCR_NAME, { group: GROUP, version: VERSION, resource: RESOURCE }, SELECTED));
  if (res.status !== 201) throw new Error(`CCR create failed: ${res.status} ${JSON.stringify(res.body)}`);
  let syncMs: number | undefined;
  let readyMs: number | undefined;
  let count = 0;
  let state: CcrState = { phase: undefined, cache: undefined, local: undefined };
  const deadline = t0 + timeoutMs;
  while (performance.now() < deadline && (syncMs === undefined || readyMs === undefined)) {
    if (syncMs === undefined) {
      count = await cacheCount(app);
      if (count >= n) syncMs = performance.now() - t0;
    }
    if (readyMs === undefined) {
      state = await ccrState(app);
      if (state.phase === 'Ready' && state.cache === n) readyMs = performance.now() - t0;
    }
    await sleep(POLL_MS);
  }
  loopDelay.disable();
  copies.stop();
  const slowestProbeMs = await prober.stop();
  if (profile) await profiler?.stop(`sync-${n}`, PROFILE_GROUPS);
  const perSecond = syncMs === undefined ? (count / timeoutMs) * 1000 : (n / syncMs) * 1000;
  report(
    `[${label}] initial sync: all copies in cache`,
    syncMs === undefined ? `timeout, ${fmt(count)} of ${fmt(n)} after ${(timeoutMs / 1000).toFixed(0)} s` : `${(syncMs / 1000).toFixed(2)} s`,
  );
  report(`[${label}] initial sync throughput`, `${fmt(perSecond)} objects/s`, `>= ${fmt(SYNC_GOAL_PER_S)}/s`, syncMs !== undefined && perSecond >= SYNC_GOAL_PER_S);
  report(
    `[${label}] first / last copy ADDED (cache watch), after CCR POST`,
    `${firstAddMs === undefined ? '-' : fmt(firstAddMs)} / ${lastAddMs === undefined ? '-' : fmt(lastAddMs)} ms`,
  );
  if (firstAddMs !== undefined && lastAddMs !== undefined) {
    report(`[${label}] copy-writing rate between first and last copy`, `${fmt((n / Math.max(1, lastAddMs - firstAddMs)) * 1000)} objects/s`);
  }
  report(`[${label}] longest event-loop stall during sync / slowest GET /livez`, `${fmt(loopDelay.max / 1e6)} ms / ${fmt(slowestProbeMs)} ms`);
  report(
    `[${label}] CCR Ready with resourceCounts.cache == N`,
    readyMs === undefined ? `not reached (phase ${state.phase ?? '-'}, cache ${state.cache ?? '-'}, local ${state.local ?? '-'})` : `${(readyMs / 1000).toFixed(2)} s`,
    '',
    readyMs !== undefined,
  );
  if (measureHeap && syncMs !== undefined) {
    await sleep(300);
    const perObject = (gcHeap() - heapBefore) / n;
    report(
      `[${label}] heap per replicated object (reflector copy + CachedObject + indexes + events)`,
      `${fmt(perObject)} B (${(perObject / avgJson).toFixed(2)}x JSON)`,
      globalThis.gc === undefined ? 'needs --expose-gc' : '',
    );
  }
  return { app, syncMs, readyMs, perSecond };
}

const PROBER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let stopping = false;
let slowest = 0;
parentPort.on('message', () => { stopping = true; });
(async () => {
  while (!stopping) {
    const t0 = performance.now();
    try { await (await fetch(workerData.url)).text(); } catch {}
    slowest = Math.max(slowest, performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  parentPort.postMessage(slowest);
})();
`;

/** startProber runs GET url back to back in a worker thread; stop() resolves with the slowest response in ms. */
function startProber(url: string): { stop(): Promise<number> } {
  const worker = new Worker(PROBER_SOURCE, { eval: true, workerData: { url } });
  return {
    stop: () => new Promise<number>((resolve, reject) => {
      worker.once('message', (slowest: number) => void worker.terminate().then(() => resolve(slowest)));
      worker.once('error', reject);
      worker.postMessage('stop');
    }),
  };
}

/** lagRun updates source objects at WRITE_RATE for LAG_SECONDS and times each write's arrival in the cache. */
async function lagRun(app: TestApp, n: number): Promise<void> {
  const source = app.app.stores.source;
  const writtenAt = new Map<string, number>();
  const lags: number[] = [];
  const watch = await app.app.stores.cache.watch(CACHE_SCOPE, { resourceVersion: await app.app.stores.cache.resourceVersion() }, (event: WatchEvent) => {
    if (event.type !== 'ADDED' && event.type !== 'MODIFIED') return;
    const rv = event.object.metadata.annotations?.[ORIGINAL_RESOURCE_VERSION_ANNOTATION];
    if (rv === undefined) return;
    const t = writtenAt.get(rv);
    if (t === undefined) return;
    lags.push(performance.now() - t);
    writtenAt.delete(rv);
  });
  let writes = 0;
  await profiler?.start();
  const t0 = performance.now();
  const end = t0 + LAG_SECONDS * 1000;
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - t0) / 1000) * WRITE_RATE);
    while (writes < due) {
      const key: ObjectKey = { ...SOURCE_REF, namespace: '', name: benchObjectName(writes % n) };
      const stored = await source.get(key);
      const spec = stored.spec as Record<string, unknown>;
      const started = performance.now();
      const updated = await source.update(
        key,
        { ...stored, metadata: { ...stored.metadata, resourceVersion: '' }, spec: { ...spec, counter: writes + 1 } },
        { statusSubresource: true },
      );
      writtenAt.set(updated.metadata.resourceVersion ?? '', started);
      writes++;
    }
    await sleep(1);
  }
  const elapsed = performance.now() - t0;
  await profiler?.stop('lag', PROFILE_GROUPS);
  const drainDeadline = performance.now() + 5_000;
  while (writtenAt.size > 0 && performance.now() < drainDeadline) await sleep(10);
  watch.stop();
  const missing = writtenAt.size;
  lags.sort((a, b) => a - b);
  const p99 = percentile(lags, 0.99);
  report('[lag] writes issued (in-process store.update)', `${fmt(writes)} in ${(elapsed / 1000).toFixed(1)} s = ${fmt((writes / elapsed) * 1000)}/s`, `${WRITE_RATE}/s`);
  report('[lag] writes seen in cache', `${fmt(lags.length)} (${missing} missing after 5 s)`, 'all', missing === 0);
  report('[lag] p50 source write -> cache copy', `${percentile(lags, 0.5).toFixed(1)} ms`);
  report('[lag] p99 source write -> cache copy', `${p99.toFixed(1)} ms`, `<= ${LAG_P99_GOAL_MS} ms`, missing === 0 && p99 <= LAG_P99_GOAL_MS);
  report('[lag] max source write -> cache copy', `${(lags[lags.length - 1] ?? NaN).toFixed(1)} ms`);
}

async function main(): Promise<void> {
  if (globalThis.gc === undefined) console.warn('run with --expose-gc for the heap figure');
  const wall = performance.now();
  const first = await syncRun(N, 120_000, true, true);
  try {
    if (first.syncMs !== undefined) await lagRun(first.app, N);
  } finally {
    await first.app.stop();
  }
  if (N2 > 0) {
    const predictedMs = (N2 / Math.max(1, first.perSecond)) * 1000;
    if (first.syncMs === undefined || predictedMs > N2_BUDGET_MS) {
      report(`[N=${fmt(N2)}] initial sync`, `skipped: predicted ${(predictedMs / 1000).toFixed(0)} s > ${N2_BUDGET_MS / 1000} s`);
    } else {
      gcHeap();
      const second = await syncRun(N2, 150_000, true);
      await second.app.stop();
    }
  }
  console.log(`replication bench, N=${fmt(N)}, N2=${fmt(N2)}, ${WRITE_RATE} writes/s for ${LAG_SECONDS} s, node ${process.version}, total ${((performance.now() - wall) / 1000).toFixed(0)} s`);
  rows.print();
}

await main();
process.exit(0);
