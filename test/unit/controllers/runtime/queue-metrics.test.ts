import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Counter, Registry } from 'prom-client';
import { controllerMetricsOf } from '../../../../src/controllers/runtime/controller-metrics.js';
import { queueMetricsOf } from '../../../../src/controllers/runtime/queue-metrics.js';
import { ItemExponentialRateLimiter } from '../../../../src/controllers/runtime/rate-limiter.js';
import { WorkQueue } from '../../../../src/controllers/runtime/work-queue.js';
import { createControllerMetricFamilies } from '../../../../src/metrics/controller-metric-families.js';
import { createQueueMetricFamilies } from '../../../../src/metrics/queue-metric-families.js';
import { metricValue } from './helpers.js';

const P = 'cachegate_workqueue_';

/** createQueueMetrics creates the work queue metrics in registry and a recorder over them. */
function createQueueMetrics(registry: Registry): ReturnType<typeof queueMetricsOf> {
  return queueMetricsOf(createQueueMetricFamilies(registry));
}

describe('queue metrics', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('case 1: registers the workqueue metrics with a name label', async () => {
    const registry = new Registry();
    createQueueMetrics(registry);
    const names = (await registry.getMetricsAsJSON()).map((m) => m.name).sort();
    expect(names).toEqual([`${P}adds_total`, `${P}depth`, `${P}queue_duration_seconds`, `${P}retries_total`, `${P}work_duration_seconds`]);
  });

  it('case 2: two recorders over one app\'s metrics both feed them', async () => {
    const registry = new Registry();
    const families = createQueueMetricFamilies(registry);
    const one = queueMetricsOf(families);
    const two = queueMetricsOf(families);
    one.added('q');
    two.added('q');
    expect(await metricValue(registry, `${P}adds_total`, { name: 'q' })).toBe(2);
  });

  it('case 3: counts adds, depth, retries and durations of one queue', async () => {
    const registry = new Registry();
    let now = 0;
    const queue = new WorkQueue({ name: 'q', metrics: createQueueMetrics(registry), rateLimiter: new ItemExponentialRateLimiter(5, 100), now: () => now });
    queue.add('a');
    queue.add('a'); // deduplicated: not an add
    queue.add('b');
    expect(await metricValue(registry, `${P}adds_total`, { name: 'q' })).toBe(2);
    expect(await metricValue(registry, `${P}depth`, { name: 'q' })).toBe(2);
    now = 250;
    const item = await queue.get();
    expect(await metricValue(registry, `${P}depth`, { name: 'q' })).toBe(1);
    now = 1250;
    queue.done(item ?? '');
    const [queued, worked] = await Promise.all([
      registry.getSingleMetricAsString(`${P}queue_duration_seconds`),
      registry.getSingleMetricAsString(`${P}work_duration_seconds`),
    ]);
    expect(queued).toContain(`${P}queue_duration_seconds_sum{name="q"} 0.25`);
    expect(worked).toContain(`${P}work_duration_seconds_sum{name="q"} 1`);
  });

  it('case 4: every addRateLimited counts a retry', async () => {
    const registry = new Registry();
    const queue = new WorkQueue({ name: 'q', metrics: createQueueMetrics(registry), rateLimiter: new ItemExponentialRateLimiter(5, 100) });
    queue.addRateLimited('a');
    queue.addRateLimited('a');
    queue.addRateLimited('b');
    queue.addAfter('c', 5); // a plain delay is not a retry
    expect(await metricValue(registry, `${P}retries_total`, { name: 'q' })).toBe(3);
    await vi.advanceTimersByTimeAsync(10);
    expect(await metricValue(registry, `${P}adds_total`, { name: 'q' })).toBe(3);
    queue.shutDown();
  });

  it('case 5: two queues share one registry under their own names', async () => {
    const registry = new Registry();
    const families = createQueueMetricFamilies(registry);
    const a = new WorkQueue({ name: 'a', metrics: queueMetricsOf(families) });
    const b = new WorkQueue({ name: 'b', metrics: queueMetricsOf(families) });
    a.add('x');
    b.add('x');
    b.add('y');
    expect(await metricValue(registry, `${P}adds_total`, { name: 'a' })).toBe(1);
    expect(await metricValue(registry, `${P}adds_total`, { name: 'b' })).toBe(2);
  });

  it('case 6: a name taken by another metric type is reported, not silently reused', () => {
    const registry = new Registry();
    new Counter({ name: `${P}depth`, help: 'not a gauge', registers: [registry] });
    expect(() => createQueueMetricFamilies(registry)).toThrow(/already been registered/);
  });

  it('case 7: they are created once per registry: a second creation is refused, not silently reused', () => {
    const registry = new Registry();
    createQueueMetrics(registry);
    expect(() => createQueueMetrics(registry)).toThrow(/already been registered/);
  });

  it('case 8: adds and depth counted between scrapes add up across scrapes; a queue removed meanwhile comes back in none', async () => {
    const registry = new Registry();
    const families = createQueueMetricFamilies(registry);
    const metrics = queueMetricsOf(families);
    const queue = new WorkQueue({ name: 'q', metrics });
    queue.add('a');
    expect(await metricValue(registry, `${P}adds_total`, { name: 'q' })).toBe(1);
    queue.add('b');
    queue.add('c');
    expect(await metricValue(registry, `${P}adds_total`, { name: 'q' })).toBe(3);
    expect(await metricValue(registry, `${P}depth`, { name: 'q' })).toBe(3);
    const gone = new WorkQueue({ name: 'gone', metrics });
    gone.add('x');
    metrics.removeSeries('gone');
    expect(await registry.getSingleMetricAsString(`${P}adds_total`)).not.toContain('name="gone"');
    expect(await registry.getSingleMetricAsString(`${P}depth`)).not.toContain('name="gone"');
    queue.shutDown();
    gone.shutDown();
  });
});

describe('controller metrics', () => {
  it('case 1: counts results and errors per controller, two recorders sharing the metrics', async () => {
    const registry = new Registry();
    const families = createControllerMetricFamilies(registry);
    const one = controllerMetricsOf(families);
    const two = controllerMetricsOf(families);
    one.reconciled('c', 'success');
    two.reconciled('c', 'error');
    two.reconciled('c', 'requeue_after');
    two.reconciled('d', 'error');
    const total = 'cachegate_controller_reconcile_total';
    const errors = 'cachegate_controller_reconcile_errors_total';
    expect(await metricValue(registry, total, { controller: 'c' })).toBe(3);
    expect(await metricValue(registry, total, { controller: 'c', result: 'error' })).toBe(1);
    expect(await metricValue(registry, errors, { controller: 'c' })).toBe(1);
    expect(await metricValue(registry, errors, { controller: 'd' })).toBe(1);
  });

  it('case 2: reconciles counted between scrapes add up across scrapes; a controller removed meanwhile comes back in none', async () => {
    const registry = new Registry();
    const metrics = controllerMetricsOf(createControllerMetricFamilies(registry));
    const total = 'cachegate_controller_reconcile_total';
    metrics.reconciled('c', 'success');
    expect(await metricValue(registry, total, { controller: 'c' })).toBe(1);
    metrics.reconciled('c', 'success');
    metrics.reconciled('c', 'error');
    expect(await metricValue(registry, total, { controller: 'c', result: 'success' })).toBe(2);
    expect(await metricValue(registry, 'cachegate_controller_reconcile_errors_total', { controller: 'c' })).toBe(1);
    metrics.reconciled('gone', 'error');
    metrics.removeSeries('gone');
    expect(await registry.metrics()).not.toContain('controller="gone"');
  });
});
