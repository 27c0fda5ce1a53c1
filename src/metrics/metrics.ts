// The metrics of one app instance, in a Registry of its own: two apps in one process (as in
// tests) must not collide in prom-client's global registry. Process, Node and HTTP metrics keep
// their conventional names so stock dashboards work; cachegate's own start with `cachegate_`.

import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** METRIC_PREFIX starts the name of every cachegate metric. */
export const METRIC_PREFIX = 'cachegate_';

/** Metrics holds the registry and the metrics shared across modules. */
export interface Metrics {
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** replicationLag: from a source change reaching cachegate to its copy being written. */
  readonly replicationLag: Histogram<'shard'>;
}

/** createMetrics makes a fresh registry with process metrics, the HTTP histogram and replication lag. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const replicationLag = new Histogram({
    name: `${METRIC_PREFIX}replication_lag_seconds`,
    help: 'Time from a source object change reaching cachegate to its CachedObject being written or deleted.',
    labelNames: ['shard'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return { registry, httpRequestDuration, replicationLag };
}
