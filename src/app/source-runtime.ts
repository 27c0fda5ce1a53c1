// Composition of one source: its clients, its CCR informer, its root controller, and the factory
// that gives each CCR a replication controller over a shared informer. Part of the composition
// root (with app.ts): the only code that knows both the kube module and the controllers.

import type { Logger } from 'pino';
import type { GroupResource, GroupVersionResource } from '../apimachinery/gvr.js';
import { schemaOf } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { ClusterCachedResourceController } from '../controllers/clustercachedresources/ccr-controller.js';
import type { CopyPurger, StartChild } from '../controllers/clustercachedresources/ccr-deps.js';
import { controllerMetricsOf } from '../controllers/runtime/controller-metrics.js';
import type { LoopTurns } from '../apimachinery/loop-turns.js';
import { queueMetricsOf } from '../controllers/runtime/queue-metrics.js';
import { ReplicationController } from '../controllers/replication/replication-controller.js';
import { CLUSTER_ANNOTATION, SHARD_ANNOTATION } from '../cachedobjects/cached-object-annotations.js';
import { reportedCcr } from '../controllers/clustercachedresources/ccr-reported.js';
import { readCcr } from '../controllers/clustercachedresources/ccr-view.js';
import type { SourceHealth } from '../controllers/clustercachedresources/ccr-reported.js';
import { DiscoveryClient } from '../kube/discovery-client.js';
import type { Reflector } from '../kube/reflector.js';
import { DynamicClient } from '../kube/dynamic-client.js';
import { ccrClient } from './ccr-client.js';
import type { Prefetched } from './informer-prefetch.js';
import type { SharedInformers } from '../kube/shared-informers.js';
import type { SourceConnection } from '../kube/source-connection.js';
import { clusterOf } from '../kube/source-connection.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ChildProgress, ClusterProgress } from '../read/replication-progress.js';
import type { IndexReader, ResourceStore } from '../store/store.js';

/** CCR_GVR is the resource the root controller watches in every source. */
export const CCR_GVR: GroupVersionResource = Object.freeze({ group: 'cache.kcp.io', version: 'v1alpha1', resource: 'clustercachedresources' });

/** SourceRuntimeOptions are what one source needs from the app. */
export interface SourceRuntimeOptions {
  readonly source: SourceConnection;
  readonly informers: SharedInformers;
  readonly cache: ResourceStore & IndexReader;
  readonly purger: CopyPurger;
  /** metrics are the app's metrics its controllers and queues record into. */
  readonly metrics: Pick<Metrics, 'workqueue' | 'controllers'>;
  readonly log: Logger;
  readonly workers: { readonly clusterCachedResources: number; readonly replication: number };
  /** observeLag records the replication lag of one copy, in seconds. */
  readonly observeLag?: (seconds: number) => void;
  /** turns paces every replication controller of the app against its one event loop. */
  readonly turns: LoopTurns;
  /**
   * leading: the controllers start at once, and readiness waits for their first sync. Otherwise
   * (a replica under leader election) the source is followed and the controllers run from lead()
   * to follow() only.
   */
  readonly leading: boolean;
  /** prefetched: the informers started for this source while the state loaded, handed over as the controllers take theirs. */
  readonly prefetched?: Prefetched;
}

/** SourceRuntime is one running source. */
export interface SourceRuntime {
  readonly name: string;
  /** client writes to this source (the write service's path to it). */
  readonly client: DynamicClient;
  /** discovery maps this source's resources to kinds, per logical cluster. */
  readonly discovery: DiscoveryClient;
  /** clusterCachedResources lists this source's CCRs, each annotated with its shard and cluster. */
  clusterCachedResources(): KubeObject[];
  /**
   * replicationProgress lists the resources this logical cluster's live CCRs name (once the CCRs
   * have been listed) and tells, for each of its running replication controllers, its resource,
   * the last source resourceVersion its informer has seen and whether it has reconciled all of it.
   */
  replicationProgress(cluster: string): ClusterProgress;
  /** check throws with the reason when the source is not connected or not synced. */
  check(): void;
  /**
   * lastSeenConnected looks at the CCR informer now and returns the last time (epoch ms) it was
   * seen connected: listed, with its list or watch connection up and no error since. Undefined
   * before the first list. It advances only when asked (at each scrape), which is all a metric needs.
   */
  lastSeenConnected(): number | undefined;
  /** lead starts the controllers (no-op while they run); with gateReadiness, readiness waits for their first sync. */
  lead(gateReadiness: boolean): void;
  /** follow stops the controllers; the copies they wrote stay. */
  follow(): Promise<void>;
  stop(): Promise<void>;
}

/** startSourceRuntime wires and starts the root controller of one source. */
export function startSourceRuntime(opts: SourceRuntimeOptions): SourceRuntime {
  const { source, informers, log } = opts;
  const client = new DynamicClient(source);
  const discovery = new DiscoveryClient(source);
  const ccrs = informers.acquire(source, CCR_GVR, undefined);
  const queueMetrics = queueMetricsOf(opts.metrics.workqueue);
  const controllerMetrics = controllerMetricsOf(opts.metrics.controllers);
  // The running children with their informers, for replicationProgress.
  const running = new Set<{ readonly child: ReplicationController; readonly resourceVersion: () => string }>();
  const startChild: StartChild = async (spec, onCountsChanged) => {
    const lease = informers.acquire(source, spec.gvr, spec.cluster);
    opts.prefetched?.handOver(spec.cluster, spec.gvr);
    const child = new ReplicationController({
      spec, source: lease.reflector, cache: opts.cache, workers: opts.workers.replication,
      log: log.child({ cluster: spec.cluster, resource: `${spec.gvr.resource}.${spec.gvr.group}` }),
      queueMetrics, controllerMetrics, onCountsChanged, observeLag: opts.observeLag, turns: opts.turns,
    });
    await child.start();
    const entry = { child, resourceVersion: () => lease.reflector.resourceVersion };
    running.add(entry);
    return {
      stop: async () => {
        running.delete(entry);
        await child.stop();
        lease.release();
      },
      updateSelector: (selector) => child.updateSelector(selector),
      counts: () => child.counts(),
      hasSynced: () => child.hasSynced(),
    };
  };
  const newController = (): ClusterCachedResourceController => new ClusterCachedResourceController({
    shard: source.name,
    ccrs: Object.assign(ccrs.reflector, { clusterOf: (obj: KubeObject) => clusterOf(source, obj) }),
    client: ccrClient(client, CCR_GVR),
    resolve: (cluster, gvr) => discovery.resolve(cluster, gvr),
    startChild,
    purger: opts.purger,
    log,
    workers: opts.workers.clusterCachedResources,
    queueMetrics,
    controllerMetrics,
  });
  // A controller stopped once cannot start again (its queue is shut down): each term gets its own.
  let controller: ClusterCachedResourceController | undefined;
  // Readiness waits for the first sync of a process that leads from its start: a replica that
  // comes to lead later already serves a cache the previous leader kept current.
  let firstSync: ClusterCachedResourceController | undefined;
  const lead = (gateReadiness: boolean): void => {
    if (controller !== undefined) return;
    controller = newController();
    if (gateReadiness) firstSync ??= controller;
    controller.start();
  };
  const follow = async (): Promise<void> => {
    // A follower replicates nothing: what was prefetched for the controllers is not needed.
    opts.prefetched?.releaseAll();
    const stopping = controller;
    controller = undefined;
    // A first sync cut short by a lost leadership no longer gates: the new leader keeps the cache.
    if (firstSync === stopping && stopping?.hasSynced() === false) firstSync = undefined;
    await stopping?.stop();
  };
  /** liveCacheCount is the copy count of the running child replicating this resource here, if any. */
  const liveCacheCount = (cluster: string, gvr: GroupVersionResource): number | undefined => {
    for (const { child } of running) {
      if (child.spec.cluster === cluster && schemaOf(child.spec.gvr) === schemaOf(gvr)) return child.counts().cache;
    }
    return undefined;
  };
  if (opts.leading) lead(true);
  let lastSeenConnectedMs: number | undefined;
  return {
    name: source.name,
    client,
    discovery,
    clusterCachedResources: () => {
      const health = sourceHealth(ccrs.reflector, Date.now());
      return [...ccrs.reflector.list()].map((obj) => {
        const cluster = clusterOf(source, obj);
        const annotations = { ...obj.metadata.annotations, [SHARD_ANNOTATION]: source.name, [CLUSTER_ANNOTATION]: cluster };
        const live = health.error === undefined ? undefined : liveCacheCount(cluster, readCcr(cluster, obj).gvr);
        return reportedCcr({ ...obj, metadata: { ...obj.metadata, annotations } }, health, live);
      });
    },
    replicationProgress(cluster) {
      // One synchronous step: an informer hands each change to its handlers (which queue it)
      // before it advances its resourceVersion, so a seen change is queued or done here.
      const children: ChildProgress[] = [];
      for (const { child, resourceVersion } of running) {
        if (child.spec.cluster === cluster) children.push({ resource: child.spec.gvr, resourceVersion: resourceVersion(), idle: child.isIdle() });
      }
      const named: GroupResource[] = [];
      for (const ccr of ccrs.reflector.list()) {
        if (clusterOf(source, ccr) === cluster && !ccr.metadata.deletionTimestamp) named.push(readCcr(cluster, ccr).gvr);
      }
      return { ccrsListed: ccrs.reflector.hasSynced(), ccrs: named, children };
    },
    check() {
      const reason = ccrs.reflector.lastError();
      if (!ccrs.reflector.hasSynced()) throw new Error(reason ? `not connected: ${reason}` : 'not synced yet');
      const lost = sourceHealth(ccrs.reflector, Date.now());
      if (lost.error !== undefined) throw new Error(`unreachable since ${lost.since ?? '?'}: ${lost.error}`);
      // Only the first sync counts: a CCR created later reports its progress in its own status.
      if (firstSync !== undefined && !firstSync.hasSynced()) throw new Error('first sync not finished: the ClusterCachedResources found at start are still replicating');
    },
    lastSeenConnected() {
      if (ccrs.reflector.hasSynced() && ccrs.reflector.lastError() === undefined) lastSeenConnectedMs = Date.now();
      return lastSeenConnectedMs;
    },
    lead,
    follow,
    async stop() {
      await follow();
      ccrs.release();
    },
  };
}

/**
 * LOST_SOURCE_GRACE_MS: a source failing for longer than this after its first sync is reported
 * lost (readiness fails, CCR reports say SourceReachable=False). Shorter failures (a cut stream
 * that the reflector re-opens at once) do not flap readiness.
 */
const LOST_SOURCE_GRACE_MS = 5000;

/** sourceHealth is the source's failure as readiness and reports see it: none while connected or within the grace. */
function sourceHealth(reflector: Reflector, now: number): SourceHealth {
  const error = reflector.lastError();
  const since = reflector.failingSince();
  if (error === undefined || since === undefined || now - Date.parse(since) < LOST_SOURCE_GRACE_MS) return { error: undefined, since: undefined };
  return { error, since };
}
