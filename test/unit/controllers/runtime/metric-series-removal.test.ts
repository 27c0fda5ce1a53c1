// A queue's and a controller's metric series go when they stop (removeSeries), and only theirs:
// another queue or controller sharing the registry keeps its series.

import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { controllerMetricsOf } from '../../../../src/controllers/runtime/controller-metrics.js';
import { queueMetricsOf } from '../../../../src/controllers/runtime/queue-metrics.js';
import { createControllerMetricFamilies } from '../../../../src/metrics/controller-metric-families.js';
import { createQueueMetricFamilies } from '../../../../src/metrics/queue-metric-families.js';

async function seriesOf(registry: Registry, label: string, value: string): Promise<number> {
  const metrics = await registry.getMetricsAsJSON();
  return metrics.flatMap((m) => m.values).filter((v) => v.labels[label] === value).length;
}

describe('removing the series of a stopped queue or controller', () => {
  it('case 1: removeSeries drops every workqueue series of one name and keeps the others', async () => {
    const registry = new Registry();
    const metrics = queueMetricsOf(createQueueMetricFamilies(registry));
    for (const name of ['gone', 'kept']) {
      metrics.added(name);
      metrics.depth(name, 1);
      metrics.retried(name);
      metrics.queued(name, 0.01);
      metrics.worked(name, 0.02);
    }
    metrics.removeSeries('gone');
    expect(await seriesOf(registry, 'name', 'gone')).toBe(0);
    expect(await seriesOf(registry, 'name', 'kept')).toBeGreaterThan(0);
  });

  it('case 2: removeSeries drops every reconcile series of one controller, whatever the result', async () => {
    const registry = new Registry();
    const metrics = controllerMetricsOf(createControllerMetricFamilies(registry));
    for (const controller of ['gone', 'kept']) {
      for (const result of ['success', 'error', 'requeue_after'] as const) metrics.reconciled(controller, result);
    }
    metrics.removeSeries('gone');
    expect(await seriesOf(registry, 'controller', 'gone')).toBe(0);
    expect(await seriesOf(registry, 'controller', 'kept')).toBe(4);
  });
});
