// The metrics of one app instance, in a Registry of its own: two apps in one process (as in
// tests) must not collide in prom-client's global registry.

import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** METRIC_PREFIX starts the name of every cachegate metric. */
export const METRIC_PREFIX = 'cachegate_';

/** Metrics holds the registry and the metrics shared across modules. */
export interface Metrics {
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
}

/** createMetrics makes a fresh registry with process metrics and the HTTP request histogram. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  const httpRequestDuration = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'Duration of HTTP requests, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  return { registry, httpRequestDuration };
}
