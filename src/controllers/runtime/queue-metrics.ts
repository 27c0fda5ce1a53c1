// Work queue metrics under the names Kubernetes gives them, labelled by queue name, so one app
// registry serves all the app's queues. A queue's series go with it (removeSeries): queues come
// and go with ClusterCachedResources, and a scrape must not keep every queue that ever ran.

import { Counter, Gauge, Histogram, exponentialBuckets } from 'prom-client';
import type { Registry } from 'prom-client';
import { METRIC_PREFIX } from '../../metrics/metrics.js';
import { registeredMetric } from './registered-metric.js';

/** QueueMetrics is what a WorkQueue reports; name is the queue's name. */
export interface QueueMetrics {
  /** added counts an item that became pending. */
  added(name: string): void;
  /** depth sets the number of items waiting to be handed out. */
  depth(name: string, n: number): void;
  /** retried counts a rate-limited re-add. */
  retried(name: string): void;
  /** queued records how long an item waited before a worker got it. */
  queued(name: string, seconds: number): void;
  /** worked records how long a worker held an item. */
  worked(name: string, seconds: number): void;
  /** removeSeries drops every series of the queue name; call it once the queue has shut down and drained. */
  removeSeries(name: string): void;
}

// Kubernetes' buckets: 10 ns to 10 s, so both map lookups and slow reconciles are visible.
const DURATION_BUCKETS = exponentialBuckets(1e-8, 10, 10);

/** createQueueMetrics registers (or reuses) the workqueue metrics in registry. */
export function createQueueMetrics(registry: Registry): QueueMetrics {
  const p = `${METRIC_PREFIX}workqueue_`;
  const depth = registeredMetric(registry, `${p}depth`, Gauge, () =>
    new Gauge({ name: `${p}depth`, help: 'Current depth of the work queue.', labelNames: ['name'] as const, registers: [registry] }),
  );
  const adds = registeredMetric(registry, `${p}adds_total`, Counter, () =>
    new Counter({ name: `${p}adds_total`, help: 'Total number of adds handled by the work queue.', labelNames: ['name'] as const, registers: [registry] }),
  );
  const retries = registeredMetric(registry, `${p}retries_total`, Counter, () =>
    new Counter({ name: `${p}retries_total`, help: 'Total number of retries handled by the work queue.', labelNames: ['name'] as const, registers: [registry] }),
  );
  const queueDuration = registeredMetric(registry, `${p}queue_duration_seconds`, Histogram, () =>
    new Histogram({
      name: `${p}queue_duration_seconds`,
      help: 'How long in seconds an item stays in the work queue before being requested.',
      labelNames: ['name'] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
  );
  const workDuration = registeredMetric(registry, `${p}work_duration_seconds`, Histogram, () =>
    new Histogram({
      name: `${p}work_duration_seconds`,
      help: 'How long in seconds processing an item from the work queue takes.',
      labelNames: ['name'] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
  );
  return {
    added: (name) => adds.inc({ name }),
    depth: (name, n) => depth.set({ name }, n),
    retried: (name) => retries.inc({ name }),
    queued: (name, seconds) => queueDuration.observe({ name }, seconds),
    worked: (name, seconds) => workDuration.observe({ name }, seconds),
    removeSeries: (name) => {
      for (const metric of [depth, adds, retries, queueDuration, workDuration]) metric.remove({ name });
    },
  };
}
