// Shared helpers of the controller runtime tests: deferred promises, metric reads, loggers and
// a controller on a short backoff.

import pino from 'pino';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { Controller } from '../../../../src/controllers/runtime/controller.js';
import type { ReconcileFn } from '../../../../src/controllers/runtime/controller.js';
import { controllerMetricsOf } from '../../../../src/controllers/runtime/controller-metrics.js';
import { queueMetricsOf } from '../../../../src/controllers/runtime/queue-metrics.js';
import { ItemExponentialRateLimiter } from '../../../../src/controllers/runtime/rate-limiter.js';
import { WorkQueue } from '../../../../src/controllers/runtime/work-queue.js';
import { createControllerMetricFamilies } from '../../../../src/metrics/controller-metric-families.js';
import { createQueueMetricFamilies } from '../../../../src/metrics/queue-metric-families.js';

/** Deferred is a promise with its resolve function exposed. */
export interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
}

/** deferred makes a promise the test settles by hand. */
export function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** sleep stands for work that takes ms, on the test's fake clock (vi.useFakeTimers): the test advances it. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** metricValue sums the samples of name whose labels include labels (histograms: the _count). */
export async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const samples = values.filter((v) => {
    const sampleName = (v as { metricName?: string }).metricName;
    return sampleName === undefined || sampleName === `${name}_count`;
  });
  return samples
    .filter((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))
    .reduce((sum, v) => sum + v.value, 0);
}

/** silentLog is a logger that writes nothing. */
export function silentLog(): Logger {
  return pino({ level: 'silent' });
}

/** capturedLog is a logger whose JSON lines are kept in lines. */
export function capturedLog(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

/** testController builds a controller named c whose queue backs off 5, 10, 20 ms, timed by Date.now. */
export function testController(reconcile: ReconcileFn, opts: { workers?: number; registry?: Registry; log?: Logger } = {}): Controller {
  const registry = opts.registry ?? new Registry();
  const queue = new WorkQueue({ name: 'c', rateLimiter: new ItemExponentialRateLimiter(5, 1000), metrics: queueMetricsOf(createQueueMetricFamilies(registry)), now: () => Date.now() });
  return new Controller({ name: 'c', workers: opts.workers ?? 1, reconcile, log: opts.log ?? silentLog(), metrics: controllerMetricsOf(createControllerMetricFamilies(registry)), queue });
}
