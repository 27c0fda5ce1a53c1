// Replication figures of the system bench, measured from outside the measured cachegate:
//   - initial sync: CCR created in the source → the measured process's /v1/schemas counts all N
//     copies (polled; each poll is also a probe of how responsive the API stays meanwhile);
//   - lag: the source updates objects at a steady rate, stamping each write; a client watching
//     the measured process's cache API stamps each copy's arrival. Lag = arrival − write, on the
//     machine's monotonic clock, which both processes read (source-protocol.ts). It includes the cache API's watch delivery,
//     i.e. it is what a client of the cache sees.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ORIGINAL_RESOURCE_VERSION_ANNOTATION } from '../../src/cachedobjects/cached-object-annotations.js';
import { SCHEMA_LABEL } from '../../src/cachedobjects/cached-object-labels.js';
import { BENCH_GVR, SELECTED } from '../lib/bench-objects.js';
import { fetchPastShedding, post } from '../lib/bench-http.js';
import { percentile } from '../lib/stats.js';
import { SHARD } from './processes.js';
import type { GcTotals, MeasuredProcess, SourceProcess } from './processes.js';
import { commitBuckets, commitHoldsBetween } from './commit-holds.js';
import type { CommitHolds } from './commit-holds.js';
import { mainThreadSchedule, scheduleBetween } from './thread-schedule.js';
import type { Schedule } from './thread-schedule.js';
import { SOURCE_CLUSTER, machineClockMs } from './source-protocol.js';

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
  /** polls made during the sync, and how many of them load shedding refused (503). */
  readonly polls: number;
  readonly shed: number;
  /** gc: the measured process's main-thread GC pauses during the sync, and its CPU time meanwhile. */
  readonly gc: { readonly pausedMs: number; readonly longestMs: number; readonly cpuMs: number };
  /**
   * driverStallMs is the longest stall of this bench process's own event loop during the sync: a
   * poll's time includes it, so a slowest answer near it says more about the bench than the server.
   */
  readonly driverStallMs: number;
}

/** syncRun creates the bench CCR in the source and waits until the measured process holds n copies. */
export async function syncRun(source: SourceProcess, measured: MeasuredProcess, n: number, timeoutMs: number): Promise<SyncResult> {
  const driver = monitorEventLoopDelay({ resolution: 10 });
  driver.enable();
  try {
    return await timedSync(source, measured, n, timeoutMs, () => driver.max / 1e6);
  } finally {
    driver.disable();
  }
}

async function timedSync(source: SourceProcess, measured: MeasuredProcess, n: number, timeoutMs: number, driverStallMs: () => number): Promise<SyncResult> {
  const gcBefore = await measured.gc();
  const t0 = performance.now();
  await post(`${source.url}/clusters/${SOURCE_CLUSTER}/apis/cache.kcp.io/v1alpha1/clustercachedresources`, {
    apiVersion: 'cache.kcp.io/v1alpha1', kind: 'ClusterCachedResource', metadata: { name: BENCH_GVR.resource },
    spec: { group: BENCH_GVR.group, version: BENCH_GVR.version, resource: BENCH_GVR.resource, labelSelector: { matchLabels: SELECTED } },
  });
  let copies = 0;
  let slowestPollMs = 0;
  let polls = 0;
  let shed = 0;
  while (performance.now() - t0 < timeoutMs) {
    const p0 = performance.now();
    const counted = await copyCount(measured);
    slowestPollMs = Math.max(slowestPollMs, performance.now() - p0);
    polls++;
    if (counted === undefined) shed++;
    copies = counted ?? copies;
    if (copies >= n) {
      const ms = performance.now() - t0;
      return { ms, copies, perSecond: (n / ms) * 1000, slowestPollMs, polls, shed, gc: gcSince(gcBefore, await measured.gc()), driverStallMs: driverStallMs() };
    }
    await sleep(POLL_MS);
  }
  return { ms: undefined, copies, perSecond: (copies / timeoutMs) * 1000, slowestPollMs, polls, shed, gc: gcSince(gcBefore, await measured.gc()), driverStallMs: driverStallMs() };
}

function gcSince(before: GcTotals, after: GcTotals): SyncResult['gc'] {
  return { pausedMs: after.pausedMs - before.pausedMs, longestMs: after.longestMs, cpuMs: after.cpuMs - before.cpuMs };
}

/** copyCount reads the copies' count, or undefined when the request is shed (503, event loop stalled). */
export async function copyCount(measured: MeasuredProcess): Promise<number | undefined> {
  const res = await fetch(`${measured.url}/v1/schemas`);
  if (res.status === 503) return undefined;
  if (res.status !== 200) throw new Error(`GET /v1/schemas: ${res.status} ${await res.text()}`);
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
  /** sourceP99 is the source's own part: write → its watch event at a client of the source. */
  readonly sourceP99: number;
  /** loopMaxMs is the measured process's longest event-loop delay from the first write until every copy arrived. */
  readonly loopMaxMs: number;
  /** commits: the measured process's local-backend commits meanwhile (undefined on other backends). */
  readonly commits?: CommitHolds;
  /** schedule: how its main thread ran and waited for a CPU meanwhile (undefined without /proc). */
  readonly schedule?: Schedule;
}

interface Meta {
  readonly metadata?: { readonly resourceVersion?: string; readonly annotations?: Record<string, string> };
}

/**
 * lagRun has the source write at rate for seconds and times every write's copy at the cache API;
 * a second client watching the source itself shows how much of the lag is the source's.
 */
export async function lagRun(source: SourceProcess, measured: MeasuredProcess, n: number, rate: number, seconds: number): Promise<LagResult> {
  const copies = new Map<string, number>();
  const events = new Map<string, number>();
  const cacheApi = `${measured.url}/services/cache/shards/${SHARD}/clusters/${SOURCE_CLUSTER}/apis/cache.kcp.io/v1alpha1/cachedobjects`
    + `?labelSelector=${encodeURIComponent(`${SCHEMA_LABEL}=${SCHEMA}`)}`;
  const sourceApi = `${source.url}/clusters/${SOURCE_CLUSTER}/apis/${BENCH_GVR.group}/${BENCH_GVR.version}/${BENCH_GVR.resource}?labelSelector=`;
  const watches = [
    await watchEvents(cacheApi, (o) => o.metadata?.annotations?.[ORIGINAL_RESOURCE_VERSION_ANNOTATION], (rv, at) => copies.set(rv, at)),
    await watchEvents(sourceApi, (o) => o.metadata?.resourceVersion, (rv, at) => events.set(rv, at)),
  ];
  try {
    const bucketsBefore = await commitBuckets(measured.url);
    await measured.longestLoopDelayMs();
    const scheduledBefore = mainThreadSchedule(measured.pid);
    const reply = await source.request({ type: 'writes', n, rate, seconds });
    if (reply.type !== 'written') throw new Error(`source answered ${reply.type} to writes`);
    const pending = (): number => reply.writes.filter(([rv]) => !copies.has(rv)).length;
    const deadline = performance.now() + DRAIN_MS;
    while (pending() > 0 && performance.now() < deadline) await sleep(50);
    const lagsTo = (arrivals: Map<string, number>): number[] => reply.writes.flatMap(([rv, at]) => {
      const arrived = arrivals.get(rv);
      return arrived === undefined ? [] : [arrived - at];
    }).sort((a, b) => a - b);
    const lags = lagsTo(copies);
    const loopMaxMs = await measured.longestLoopDelayMs();
    const schedule = scheduleBetween(scheduledBefore, mainThreadSchedule(measured.pid));
    const commits = commitHoldsBetween(bucketsBefore, await commitBuckets(measured.url));
    return {
      loopMaxMs, ...(commits === undefined ? {} : { commits }), ...(schedule === undefined ? {} : { schedule }),
      rate, writes: reply.writes.length, achievedRate: (reply.writes.length / reply.elapsedMs) * 1000, missing: pending(),
      p50: percentile(lags, 0.5), p99: percentile(lags, 0.99), max: lags[lags.length - 1] ?? NaN, sourceP99: percentile(lagsTo(events), 0.99),
    };
  } finally {
    for (const watch of watches) watch.abort();
  }
}

/**
 * watchEvents watches a kube-style list URL (newline-delimited JSON events) from its current
 * resourceVersion on, and calls seen with each event's resourceVersion (as rvOf reads it from the
 * object) and the chunk's arrival time.
 */
async function watchEvents(listUrl: string, rvOf: (obj: Meta) => string | undefined, seen: (rv: string, at: number) => void): Promise<AbortController> {
  const list = (await (await fetchPastShedding(`${listUrl}&limit=1`)).json()) as { metadata: { resourceVersion: string } };
  const abort = new AbortController();
  const res = await fetchPastShedding(`${listUrl}&watch=true&resourceVersion=${list.metadata.resourceVersion}`, { signal: abort.signal });
  if (!res.ok || !res.body) throw new Error(`watch ${listUrl}: ${res.status}`);
  const body = res.body;
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of body) {
        const at = machineClockMs();
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          const rv = rvOf((JSON.parse(line) as { object?: Meta }).object ?? {});
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
