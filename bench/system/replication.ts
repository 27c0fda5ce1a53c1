// Replication figures of the system bench, measured from outside the measured cachegate:
//   - initial sync: CCR created in the source → the measured process's /v1/schemas counts all N
//     copies (polled; each poll is also a probe of how responsive the API stays meanwhile);
//   - lag: the source updates objects at a steady rate, stamping each write; a client watching
//     the measured process's cache API stamps each copy's arrival. Lag = arrival − write, on one
//     machine-wide wall clock (source-protocol.ts). It includes the cache API's watch delivery,
//     i.e. it is what a client of the cache sees.

import { ORIGINAL_RESOURCE_VERSION_ANNOTATION } from '../../src/cachedobjects/cached-object-annotations.js';
import { SCHEMA_LABEL } from '../../src/cachedobjects/cached-object-labels.js';
import { BENCH_GVR, SELECTED } from '../lib/bench-objects.js';
import { post } from '../lib/bench-http.js';
import { percentile } from '../lib/stats.js';
import { SHARD } from './processes.js';
import type { MeasuredProcess, SourceProcess } from './processes.js';
import { SOURCE_CLUSTER, wallClockMs } from './source-protocol.js';

/** SCHEMA is the replicated schema string of the bench objects. */
export const SCHEMA = `${BENCH_GVR.version}.${BENCH_GVR.resource}.${BENCH_GVR.group}`;
const POLL_MS = 50;
const DRAIN_MS = 5_000;

/** SyncResult is one initial sync. */
export interface SyncResult {
  /** ms from the CCR POST to all n copies counted; undefined on timeout. */
  readonly ms: number | undefined;
  readonly copies: number;
  readonly perSecond: number;
  /** slowestPollMs is the slowest /v1/schemas answer during the sync. */
  readonly slowestPollMs: number;
}

/** syncRun creates the bench CCR in the source and waits until the measured process holds n copies. */
export async function syncRun(source: SourceProcess, measured: MeasuredProcess, n: number, timeoutMs: number): Promise<SyncResult> {
  const t0 = performance.now();
  await post(`${source.url}/clusters/${SOURCE_CLUSTER}/apis/cache.kcp.io/v1alpha1/clustercachedresources`, {
    apiVersion: 'cache.kcp.io/v1alpha1', kind: 'ClusterCachedResource', metadata: { name: BENCH_GVR.resource },
    spec: { group: BENCH_GVR.group, version: BENCH_GVR.version, resource: BENCH_GVR.resource, labelSelector: { matchLabels: SELECTED } },
  });
  let copies = 0;
  let slowestPollMs = 0;
  while (performance.now() - t0 < timeoutMs) {
    const p0 = performance.now();
    copies = await copyCount(measured);
    slowestPollMs = Math.max(slowestPollMs, performance.now() - p0);
    if (copies >= n) {
      const ms = performance.now() - t0;
      return { ms, copies, perSecond: (n / ms) * 1000, slowestPollMs };
    }
    await sleep(POLL_MS);
  }
  return { ms: undefined, copies, perSecond: (copies / timeoutMs) * 1000, slowestPollMs };
}

async function copyCount(measured: MeasuredProcess): Promise<number> {
  const res = await fetch(`${measured.url}/v1/schemas`);
  const body = (await res.json()) as { items: Array<{ name: string; clusters: Array<{ shard: string; cluster: string; count: number }> }> };
  const clusters = body.items.find((s) => s.name === SCHEMA)?.clusters ?? [];
  return clusters.find((c) => c.shard === SHARD && c.cluster === SOURCE_CLUSTER)?.count ?? 0;
}

/** LagResult is one steady-rate run. */
export interface LagResult {
  readonly rate: number;
  readonly writes: number;
  readonly achievedRate: number;
  readonly missing: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** lagRun has the source write at rate for seconds and times every write's copy at the cache API. */
export async function lagRun(source: SourceProcess, measured: MeasuredProcess, n: number, rate: number, seconds: number): Promise<LagResult> {
  const arrivals = new Map<string, number>();
  const watch = await watchCopies(measured, (rv, at) => arrivals.set(rv, at));
  try {
    const reply = await source.request({ type: 'writes', n, rate, seconds });
    if (reply.type !== 'written') throw new Error(`source answered ${reply.type} to writes`);
    const pending = (): number => reply.writes.filter(([rv]) => !arrivals.has(rv)).length;
    const deadline = performance.now() + DRAIN_MS;
    while (pending() > 0 && performance.now() < deadline) await sleep(50);
    const lags = reply.writes.flatMap(([rv, at]) => {
      const arrived = arrivals.get(rv);
      return arrived === undefined ? [] : [arrived - at];
    }).sort((a, b) => a - b);
    return {
      rate, writes: reply.writes.length, achievedRate: (reply.writes.length / reply.elapsedMs) * 1000, missing: pending(),
      p50: percentile(lags, 0.5), p99: percentile(lags, 0.99), max: lags[lags.length - 1] ?? NaN,
    };
  } finally {
    watch.abort();
  }
}

/**
 * watchCopies watches the measured process's cache API (newline-delimited JSON events) from now
 * on and calls seen with each copy's original resourceVersion and its arrival time.
 */
async function watchCopies(measured: MeasuredProcess, seen: (rv: string, at: number) => void): Promise<AbortController> {
  const base = `${measured.url}/services/cache/shards/${SHARD}/clusters/${SOURCE_CLUSTER}/apis/cache.kcp.io/v1alpha1/cachedobjects`;
  const selector = `labelSelector=${encodeURIComponent(`${SCHEMA_LABEL}=${SCHEMA}`)}`;
  const list = (await (await fetch(`${base}?limit=1&${selector}`)).json()) as { metadata: { resourceVersion: string } };
  const abort = new AbortController();
  const res = await fetch(`${base}?watch=true&resourceVersion=${list.metadata.resourceVersion}&${selector}`, { signal: abort.signal });
  if (!res.ok || !res.body) throw new Error(`cache watch: ${res.status}`);
  const body = res.body;
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of body) {
        const at = wallClockMs();
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          const event = JSON.parse(line) as { object?: { metadata?: { annotations?: Record<string, string> } } };
          const rv = event.object?.metadata?.annotations?.[ORIGINAL_RESOURCE_VERSION_ANNOTATION];
          if (rv !== undefined) seen(rv, at);
        }
      }
    } catch {
      // aborted at the end of the run
    }
  })();
  return abort;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
