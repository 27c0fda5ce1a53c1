// What a controller reports about its reconciles, recorded into the app's reconcile counters
// (created with every other metric in src/metrics), labelled by controller. A controller's series
// go with it (removeSeries): controllers come and go with ClusterCachedResources.

import type { ControllerMetricFamilies } from '../../metrics/controller-metric-families.js';

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

/**
 * controllerMetricsOf records into families; every controller of the app may share it. A sync
 * counts a reconcile per key, and a prom-client increment builds its label key each time: the
 * counts are kept here and added when a scrape reads the counters (families.beforeCollect).
 */
export function controllerMetricsOf(families: ControllerMetricFamilies): ControllerMetrics {
  const { reconciles, errors } = families;
  /** pending: per controller, the reconciles not added yet, by RECONCILE_RESULTS index. */
  const pending = new Map<string, number[]>();
  families.beforeCollect.add(() => {
    for (const [controller, counts] of pending) {
      RECONCILE_RESULTS.forEach((result, i) => {
        const n = counts[i] ?? 0;
        if (n === 0) return;
        reconciles.inc({ controller, result }, n);
        if (result === 'error') errors.inc({ controller }, n);
      });
    }
    pending.clear();
  });
  return {
    reconciled(controller, result) {
      let counts = pending.get(controller);
      if (counts === undefined) {
        counts = RECONCILE_RESULTS.map(() => 0);
        pending.set(controller, counts);
      }
      const i = RECONCILE_RESULTS.indexOf(result);
      counts[i] = (counts[i] ?? 0) + 1;
    },
    removeSeries(controller) {
      pending.delete(controller);
      for (const result of RECONCILE_RESULTS) reconciles.remove({ controller, result });
      errors.remove({ controller });
    },
  };
}
