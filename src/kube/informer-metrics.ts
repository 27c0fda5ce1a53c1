// The metrics of cachegate's informers, registered once per Registry: several reflectors (and
// several SharedInformers) may share one registry, and prom-client throws on a second
// registration of the same name.

import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

/** INFORMER_RESTARTS_METRIC counts list/watch restarts after errors and expired resourceVersions. */
export const INFORMER_RESTARTS_METRIC = 'cachegate_informer_restarts_total';

/** InformerRestartLabels are the labels of the restart counter. */
export type InformerRestartLabels = 'source' | 'resource';

/** informerRestartsCounter gives the registry's restart counter, creating it on first use. */
export function informerRestartsCounter(registry: Registry): Counter<InformerRestartLabels> {
  const existing = registry.getSingleMetric(INFORMER_RESTARTS_METRIC);
  if (existing instanceof Counter) return existing as Counter<InformerRestartLabels>;
  return new Counter({
    name: INFORMER_RESTARTS_METRIC,
    help: 'Informer restarts (re-list or re-watch after an error or an expired resourceVersion), by source and resource schema.',
    labelNames: ['source', 'resource'] as const,
    registers: [registry],
  });
}
