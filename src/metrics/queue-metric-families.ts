// The work queue metrics under the names Kubernetes gives them, labelled by queue name, so one
// set serves all the app's queues.

import { Counter, Gauge, Histogram, exponentialBuckets } from 'prom-client';
import type { Registry } from 'prom-client';
import { collectHooks } from './collect-hooks.js';
import { METRIC_PREFIX } from './metric-names.js';

/** QueueMetricFamilies are the work queue metrics of one app, each labelled by queue name. */
export interface QueueMetricFamilies {
  readonly depth: Gauge<'name'>;
  readonly adds: Counter<'name'>;
  readonly retries: Counter<'name'>;
  readonly queueDuration: Histogram<'name'>;
  readonly workDuration: Histogram<'name'>;
  /** beforeCollect: what recorders that count in batches run to bring depth and adds up to date before they are read. */
  readonly beforeCollect: Set<() => void>;
}

// Kubernetes' buckets: 10 ns to 10 s, so both map lookups and slow reconciles are visible.
const DURATION_BUCKETS = exponentialBuckets(1e-8, 10, 10);

const PREFIX = `${METRIC_PREFIX}workqueue_`;

/** createQueueMetricFamilies registers the work queue metrics in registry (a second time throws, as prom-client does). */
export function createQueueMetricFamilies(registry: Registry): QueueMetricFamilies {
  const labelNames = ['name'] as const;
  const registers = [registry];
  const { beforeCollect, collect } = collectHooks();
  return {
    beforeCollect,
    depth: new Gauge({ name: `${PREFIX}depth`, help: 'Current depth of the work queue.', labelNames, registers, collect }),
    adds: new Counter({ name: `${PREFIX}adds_total`, help: 'Total number of adds handled by the work queue.', labelNames, registers, collect }),
    retries: new Counter({ name: `${PREFIX}retries_total`, help: 'Total number of retries handled by the work queue.', labelNames, registers }),
    queueDuration: new Histogram({
      name: `${PREFIX}queue_duration_seconds`,
      help: 'How long in seconds an item stays in the work queue before being requested.',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    workDuration: new Histogram({
      name: `${PREFIX}work_duration_seconds`,
      help: 'How long in seconds processing an item from the work queue takes.',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    }),
  };
}
