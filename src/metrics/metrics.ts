// Every metric of one app instance, created here and only here, once, in a Registry of its own:
// two apps in one process (as in tests) must not collide, and no module looks a metric up or
// creates one on first use. The other modules receive the metric objects they record into (or
// narrow interfaces over them). Process, Node and HTTP metrics keep their conventional names so
// stock dashboards work; cachegate's own start with `cachegate_`.

import { Histogram, Registry } from 'prom-client';
import { packageVersion, registerBuildInfo } from './build-info.js';
import { observeCcrs } from './ccr-gauges.js';
import type { ObservedCcrs } from './ccr-gauges.js';
import { createControllerMetricFamilies } from './controller-metric-families.js';
import type { ControllerMetricFamilies } from './controller-metric-families.js';
import { registerDefaultMetrics } from './default-metrics.js';
import { createInformerRestarts } from './informer-restarts.js';
import type { InformerRestartsCounter } from './informer-restarts.js';
import { HTTP_REQUEST_DURATION_METRIC, METRIC_PREFIX } from './metric-names.js';
import { observeCachedObjects, observeLeadership, observeOverlay, observeStreamingClients } from './observed-gauges.js';
import type { CachedObjectCount, ObservedOverlay } from './observed-gauges.js';
import { createQueueMetricFamilies } from './queue-metric-families.js';
import type { QueueMetricFamilies } from './queue-metric-families.js';
import { observeReadiness, observeSources } from './source-gauges.js';
import type { ReadinessCheck, SourceObservation } from './source-gauges.js';
import { observeStorageThreadHeap } from './storage-thread-gauges.js';
import type { ObservedThreadHeap } from './storage-thread-gauges.js';
import { createStreamMetrics } from './stream-metrics.js';
import type { StreamsGauge, SubscriptionsGauge } from './stream-metrics.js';

export type { CcrObservation, ObservedCcrs } from './ccr-gauges.js';
export type { ReadinessCheck, SourceObservation } from './source-gauges.js';
export type { ObservedOverlay } from './observed-gauges.js';
export type { GraphqlCounters, GraphqlOperationType, OpenStreamsGauge } from './stream-metrics.js';

/** ObservedState is the app state the scrape-time gauges read at each scrape. */
export interface ObservedState {
  /** cachedObjects counts the cache's copies per schema and (shard, cluster). */
  readonly cachedObjects: () => Promise<readonly CachedObjectCount[]>;
  /** watchClients counts open kube-API watch streams, per API. */
  readonly watchClients: Readonly<Record<string, () => number>>;
  /** overlay is the read-your-writes overlay; without it (cache disabled) it has no metrics. */
  readonly overlay?: ObservedOverlay;
  /** leading tells whether this process leads now. */
  readonly leading: () => boolean;
  /** sources report each configured source's health; without them the source gauges have no series. */
  readonly sources?: () => readonly SourceObservation[];
  /** ccrs are the ClusterCachedResources the sources hold; without them the CCR gauges have no series. */
  readonly ccrs?: ObservedCcrs;
  /** readiness gives the checks /readyz runs; without them `cachegate_ready` is 1 whenever the process answers. */
  readonly readiness?: () => Iterable<ReadinessCheck>;
  /** storageThreadHeap reads the storage backend's client thread's heap (etcd); undefined or no answer: no series. */
  readonly storageThreadHeap?: ObservedThreadHeap;
}

/** Metrics holds the app's registry and every metric something records into. */
export interface Metrics {
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** replicationLag: from a source change reaching cachegate to its copy being written. */
  readonly replicationLag: Histogram<'shard'>;
  /** workqueue: the work queues' metrics, labelled by queue name. */
  readonly workqueue: QueueMetricFamilies;
  /** controllers: the reconcile counters, labelled by controller name. */
  readonly controllers: ControllerMetricFamilies;
  /** informerRestarts: list/watch restarts, labelled by source and resource, held by the informers running. */
  readonly informerRestarts: InformerRestartsCounter;
  /** sseClients: open Server-Sent Events streams of the REST facade, and the events written to them. */
  readonly sseClients: StreamsGauge;
  /** graphqlSubscriptions: open GraphQL subscriptions, and the GraphQL facade's counters (events, operations, errors). */
  readonly graphqlSubscriptions: SubscriptionsGauge;
  /** storageCommits: how long each commit of a backend that commits on the event loop (local) held it. */
  readonly storageCommits: Histogram<'backend'>;
}

/** createMetrics makes a fresh registry holding every metric of one app, the scrape-time gauges reading observed. */
export function createMetrics(observed: ObservedState): Metrics {
  const registry = new Registry();
  registerDefaultMetrics(registry);
  registerBuildInfo(registry, packageVersion());
  observeStreamingClients(registry, observed.watchClients);
  observeCachedObjects(registry, observed.cachedObjects);
  if (observed.overlay !== undefined) observeOverlay(registry, observed.overlay);
  observeLeadership(registry, observed.leading);
  observeSources(registry, observed.sources ?? (() => []));
  observeCcrs(registry, observed.ccrs ?? { phases: [], list: () => [] });
  observeReadiness(registry, observed.readiness ?? (() => []));
  observeStorageThreadHeap(registry, observed.storageThreadHeap ?? (async () => undefined));
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: HTTP_REQUEST_DURATION_METRIC,
      help: 'Duration of HTTP requests, by method, route template and status code.',
      labelNames: ['method', 'route', 'status_code'] as const,
      registers: [registry],
    }),
    replicationLag: new Histogram({
      name: `${METRIC_PREFIX}replication_lag_seconds`,
      help: 'Time from a source object change reaching cachegate to its CachedObject being written or deleted.',
      labelNames: ['shard'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    // SQLite commits synchronously: a commit's time (its fsync and any WAL checkpoint included) is
    // time the event loop serves nothing else, so disk latency shows here before it shows as lag.
    storageCommits: new Histogram({
      name: `${METRIC_PREFIX}storage_commit_seconds`,
      help: 'Time each commit of the local backend (one transaction of grouped writes) held the event loop.',
      labelNames: ['backend'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    }),
    workqueue: createQueueMetricFamilies(registry),
    controllers: createControllerMetricFamilies(registry),
    informerRestarts: createInformerRestarts(registry),
    ...createStreamMetrics(registry),
  };
}
