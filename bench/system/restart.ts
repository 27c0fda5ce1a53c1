// The restart figures of a durable backend: the measured cachegate is stopped gracefully
// (SIGTERM) and started again over the same state (data directory or etcd prefix).
//   - time from spawn to the first /readyz 200 (the state is loaded before the app serves);
//   - copies the restart rewrote: every copy's resourceVersion is read from a full, paged list of
//     the cache API before the stop, and again once the restarted replication controller has
//     processed every key (its work queue metrics: processed ≥ n and depth 0). A copy written
//     again, deleted, or created anew has another (or no) resourceVersion; the revision of a
//     durable backend is never handed out twice, so an unchanged one is an untouched copy.

import { CLUSTER_ANNOTATION, SHARD_ANNOTATION } from '../../src/cachedobjects/cached-object-annotations.js';
import { fetchPastShedding } from '../lib/bench-http.js';
import type { MeasuredProcess, StopReport } from './processes.js';
import { copyCount } from './replication.js';

const CACHE_LIST = '/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects';
const PAGE = 10_000;
const RECONCILE_DEADLINE_MS = 180_000;
const POLL_MS = 100;

/** RestartResult is one graceful stop and start over durable state. */
export interface RestartResult {
  readonly stop: StopReport;
  /** readyMs: spawn → first /readyz 200. */
  readonly readyMs: number;
  /** copiesAtReady: the copies the restarted process counted right after its first ready answer; undefined: that request was shed (503). */
  readonly copiesAtReady: number | undefined;
  /** reconciledMs: spawn → every key processed by the replication controller; undefined past the deadline. */
  readonly reconciledMs: number | undefined;
  readonly copiesBefore: number;
  /** rewritten: copies present before and after with another resourceVersion. */
  readonly rewritten: number;
  readonly missing: number;
  readonly added: number;
  readonly listRvBefore: string;
  readonly listRvAfter: string;
}

/** restartRun stops measured, starts it again with relaunch, and compares the copies; it returns the new process. */
export async function restartRun(measured: MeasuredProcess, relaunch: () => Promise<MeasuredProcess>, n: number): Promise<{ restart: RestartResult; measured: MeasuredProcess }> {
  const before = await copyVersions(measured.url);
  const stop = await measured.stop();
  const restarted = await relaunch();
  const copiesAtReady = await copyCount(restarted);
  const reconciledAfterReadyMs = await waitReconciled(restarted.url, n);
  const after = await copyVersions(restarted.url);
  let rewritten = 0;
  let missing = 0;
  for (const [key, rv] of before.versions) {
    const now = after.versions.get(key);
    if (now === undefined) missing++;
    else if (now !== rv) rewritten++;
  }
  const added = [...after.versions.keys()].filter((key) => !before.versions.has(key)).length;
  return {
    restart: {
      stop, readyMs: restarted.readyMs, copiesAtReady,
      reconciledMs: reconciledAfterReadyMs === undefined ? undefined : restarted.readyMs + reconciledAfterReadyMs,
      copiesBefore: before.versions.size, rewritten, missing, added, listRvBefore: before.listRv, listRvAfter: after.listRv,
    },
    measured: restarted,
  };
}

interface CopyVersions {
  readonly listRv: string;
  /** versions: resourceVersion by shard/cluster/namespace/name. */
  readonly versions: Map<string, string>;
}

interface CachedObjectList {
  readonly metadata: { readonly resourceVersion: string; readonly continue?: string };
  readonly items: ReadonlyArray<{ readonly metadata: { readonly name: string; readonly namespace?: string; readonly resourceVersion: string; readonly annotations?: Record<string, string> } }>;
}

/** copyVersions lists every copy in pages (all pages at the first page's resourceVersion). */
async function copyVersions(url: string): Promise<CopyVersions> {
  const versions = new Map<string, string>();
  let listRv = '';
  let token: string | undefined;
  do {
    const query = `limit=${PAGE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    const res = await fetchPastShedding(`${url}${CACHE_LIST}?${query}`);
    if (res.status !== 200) throw new Error(`list copies: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as CachedObjectList;
    listRv ||= page.metadata.resourceVersion;
    for (const { metadata: m } of page.items) {
      versions.set(`${m.annotations?.[SHARD_ANNOTATION] ?? ''}/${m.annotations?.[CLUSTER_ANNOTATION] ?? ''}/${m.namespace ?? ''}/${m.name}`, m.resourceVersion);
    }
    token = page.metadata.continue || undefined;
  } while (token);
  return { listRv, versions };
}

/**
 * waitReconciled waits until the replication work queues have processed at least n keys and are
 * empty, i.e. the restarted controller looked at every copy; it resolves with the ms it waited.
 */
async function waitReconciled(url: string, n: number): Promise<number | undefined> {
  const t0 = performance.now();
  while (performance.now() - t0 < RECONCILE_DEADLINE_MS) {
    const { processed, depth } = await replicationQueue(url);
    if (processed >= n && depth === 0) return performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return undefined;
}

/** replicationQueue sums the replication work queues' processed items and depth from /metrics. */
async function replicationQueue(url: string): Promise<{ processed: number; depth: number }> {
  const text = await (await fetchPastShedding(`${url}/metrics`)).text();
  const sum = (metric: string): number => [...text.matchAll(new RegExp(`^${metric}\\{name="replication:[^"]*"\\} (\\S+)$`, 'gm'))]
    .reduce((total, match) => total + Number(match[1]), 0);
  return { processed: sum('cachegate_workqueue_work_duration_seconds_count'), depth: sum('cachegate_workqueue_depth') };
}
