// Reconcile counters under controller-runtime's names, labelled by controller, so one app
// registry serves all the app's controllers. A controller's series go with it (removeSeries):
// controllers come and go with ClusterCachedResources.

import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import { METRIC_PREFIX } from '../../metrics/metrics.js';
import { registeredMetric } from './registered-metric.js';

/** RECONCILE_RESULTS are the values of the result label. */
export const RECONCILE_RESULTS = ['success', 'error', 'requeue_after'] as const;

/** ReconcileResult is how one reconcile ended, as the result label says. */
export type ReconcileResult = (typeof RECONCILE_RESULTS)[number];

/** ControllerMetrics is what a Controller reports about its reconciles. */
export interface ControllerMetrics {
  /** reconciled counts one reconcile of controller; an error also counts in the errors total. */
  reconciled(controller: string, result: ReconcileResult): void;
  /** removeSeries drops every series of controller; call it once the controller has stopped. */
  removeSeries(controller: string): void;
}

/** createControllerMetrics registers (or reuses) the controller metrics in registry. */
export function createControllerMetrics(registry: Registry): ControllerMetrics {
  const totalName = `${METRIC_PREFIX}controller_reconcile_total`;
  const errorsName = `${METRIC_PREFIX}controller_reconcile_errors_total`;
  const total = registeredMetric(registry, totalName, Counter, () =>
    new Counter({
      name: totalName,
      help: 'Total number of reconciliations per controller, by result.',
      labelNames: ['controller', 'result'] as const,
      registers: [registry],
    }),
  );
  const errors = registeredMetric(registry, errorsName, Counter, () =>
    new Counter({
      name: errorsName,
      help: 'Total number of reconciliation errors per controller.',
      labelNames: ['controller'] as const,
      registers: [registry],
    }),
  );
  return {
    reconciled(controller, result) {
      total.inc({ controller, result });
      if (result === 'error') errors.inc({ controller });
    },
    removeSeries(controller) {
      for (const result of RECONCILE_RESULTS) total.remove({ controller, result });
      errors.remove({ controller });
    },
  };
}
