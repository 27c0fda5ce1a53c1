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

/** controllerMetricsOf records into families; every controller of the app may share it. */
export function controllerMetricsOf(families: ControllerMetricFamilies): ControllerMetrics {
  const { reconciles, errors } = families;
  return {
    reconciled(controller, result) {
      reconciles.inc({ controller, result });
      if (result === 'error') errors.inc({ controller });
    },
    removeSeries(controller) {
      for (const result of RECONCILE_RESULTS) reconciles.remove({ controller, result });
      errors.remove({ controller });
    },
  };
}
