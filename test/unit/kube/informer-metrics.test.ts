// The informer restart series is shared by every reflector of one (source, resource) and removed
// by the last one to let go of it.

import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { InformerRestarts } from '../../../src/kube/informer-metrics.js';
import { createInformerRestarts } from '../../../src/metrics/informer-restarts.js';
import { INFORMER_RESTARTS_METRIC } from '../../../src/metrics/metric-names.js';

async function restarts(registry: Registry): Promise<Array<{ labels: object; value: number }>> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === INFORMER_RESTARTS_METRIC);
  return (metric?.values ?? []).map((v) => ({ labels: v.labels, value: v.value }));
}

const LABELS = { source: 'embedded', resource: 'v1.widgets.example.com' };

describe('informer restart series', () => {
  it('case 1: two holders share one series; it stays until the last one releases', async () => {
    const registry = new Registry();
    // The app's counter, as the informers see it.
    const counter: InformerRestarts = createInformerRestarts(registry);
    const first = counter.hold(LABELS);
    const second = counter.hold(LABELS);
    first.inc();
    second.inc();
    expect(await restarts(registry)).toEqual([{ labels: LABELS, value: 2 }]);
    first.release();
    first.release(); // a second release is no second let-go
    expect(await restarts(registry)).toEqual([{ labels: LABELS, value: 2 }]);
    second.release();
    expect(await restarts(registry)).toEqual([]);
  });

  it('case 2: a restart counted after release brings no series back', async () => {
    const registry = new Registry();
    const counter: InformerRestarts = createInformerRestarts(registry);
    const series = counter.hold(LABELS);
    series.release();
    series.inc();
    expect(await restarts(registry)).toEqual([]);
  });
});
