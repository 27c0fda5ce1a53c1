// prom-client's default process and Node.js metrics, minus the ones the Prometheus naming rules
// refuse. prom-client registers `nodejs_active_handles_total`, `nodejs_active_requests_total` and
// `nodejs_active_resources_total` as gauges, and a `_total` suffix promises a counter: promtool
// rejects them, and rate() over them would be wrong. Each repeats the sum of a gauge kept beside
// it (`nodejs_active_handles{type}`, …), so leaving them out loses nothing: sum() gives the total.

import { Counter, collectDefaultMetrics } from 'prom-client';
import type { Registry } from 'prom-client';

/** registerDefaultMetrics registers prom-client's default metrics in registry, keeping only conforming names. */
export function registerDefaultMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const metric of registry.getMetricsAsArray()) {
    if (metric.name.endsWith('_total') && !(metric instanceof Counter)) registry.removeSingleMetric(metric.name);
  }
}
