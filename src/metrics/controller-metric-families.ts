// Reconcile counters under controller-runtime's names, labelled by controller, so one set serves
// all the app's controllers.

import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import { collectHooks } from './collect-hooks.js';
import { METRIC_PREFIX } from './metric-names.js';

/** ControllerMetricFamilies are the reconcile counters of one app. */
export interface ControllerMetricFamilies {
  /** reconciles counts reconciles by controller and result (success, error, requeue_after). */
  readonly reconciles: Counter<'controller' | 'result'>;
  /** errors counts failed reconciles by controller. */
  readonly errors: Counter<'controller'>;
  /** beforeCollect: what recorders that count in batches run to bring both counters up to date before they are read. */
  readonly beforeCollect: Set<() => void>;
}

/** createControllerMetricFamilies registers the reconcile counters in registry (a second time throws, as prom-client does). */
export function createControllerMetricFamilies(registry: Registry): ControllerMetricFamilies {
  const { beforeCollect, collect } = collectHooks();
  return {
    beforeCollect,
    reconciles: new Counter({
      name: `${METRIC_PREFIX}controller_reconcile_total`,
      help: 'Total number of reconciliations per controller, by result.',
      labelNames: ['controller', 'result'] as const,
      registers: [registry],
      collect,
    }),
    errors: new Counter({
      name: `${METRIC_PREFIX}controller_reconcile_errors_total`,
      help: 'Total number of reconciliation errors per controller.',
      labelNames: ['controller'] as const,
      registers: [registry],
      collect,
    }),
  };
}
