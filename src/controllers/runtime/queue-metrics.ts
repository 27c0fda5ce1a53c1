// What a work queue reports, recorded into the app's work queue metrics (created with every other
// metric in src/metrics), labelled by queue name. A queue's series go with it (removeSeries):
// queues come and go with ClusterCachedResources, and a scrape must not keep every queue that ever ran.

import type { QueueMetricFamilies } from '../../metrics/queue-metric-families.js';

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

/**
 * queueMetricsOf records into families; every queue of the app may share it. Adds and depth change
 * with every key of a sync, and a prom-client update builds its label key each time: they are
 * kept here and handed to the metrics when a scrape reads them (families.beforeCollect).
 */
export function queueMetricsOf(families: QueueMetricFamilies): QueueMetrics {
  const { depth, adds, retries, queueDuration, workDuration } = families;
  const pendingAdds = new Map<string, number>();
  const depths = new Map<string, number>();
  families.beforeCollect.add(() => {
    for (const [name, n] of pendingAdds) adds.inc({ name }, n);
    pendingAdds.clear();
    for (const [name, n] of depths) depth.set({ name }, n);
    depths.clear();
  });
  return {
    added: (name) => void pendingAdds.set(name, (pendingAdds.get(name) ?? 0) + 1),
    depth: (name, n) => void depths.set(name, n),
    retried: (name) => retries.inc({ name }),
    queued: (name, seconds) => queueDuration.observe({ name }, seconds),
    worked: (name, seconds) => workDuration.observe({ name }, seconds),
    removeSeries: (name) => {
      pendingAdds.delete(name);
      depths.delete(name);
      for (const metric of [depth, adds, retries, queueDuration, workDuration]) metric.remove({ name });
    },
  };
}
