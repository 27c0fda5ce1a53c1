// createMetrics makes every metric of one app in a registry of its own: two apps in one process
// do not collide, the overlay's metrics exist only when the app has an overlay, and the leader
// gauge and the storage client thread's heap gauges read the app at each scrape.

import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/metrics/metrics.js';
import type { ObservedState } from '../../../src/metrics/metrics.js';

const NOTHING_OBSERVED: ObservedState = { cachedObjects: async () => [], watchClients: {}, leading: () => true };
const OVERLAY_METRICS = ['cachegate_overlay_entries', 'cachegate_overlay_evictions_total'];

async function names(observed: ObservedState): Promise<string[]> {
  return (await createMetrics(observed).registry.getMetricsAsJSON()).map((m) => m.name);
}

describe('createMetrics', () => {
  it('case 1: two apps in one process each get their own registry and metrics', async () => {
    const one = createMetrics(NOTHING_OBSERVED);
    const two = createMetrics(NOTHING_OBSERVED);
    one.sseClients.inc();
    expect(two.registry).not.toBe(one.registry);
    expect((await two.sseClients.get()).values[0]?.value ?? 0).toBe(0);
  });

  it('case 2: without an overlay there are no overlay metrics', async () => {
    expect((await names(NOTHING_OBSERVED)).filter((name) => OVERLAY_METRICS.includes(name))).toEqual([]);
  });

  it('case 3: with an overlay, its entries and evictions are read at scrape time', async () => {
    const overlay = { size: () => ({ live: 2, tombstones: 1 }), evictions: () => ({ cache: 3, ttl: 0 }) };
    const metrics = createMetrics({ ...NOTHING_OBSERVED, overlay });
    expect(await names({ ...NOTHING_OBSERVED, overlay })).toEqual(expect.arrayContaining(OVERLAY_METRICS));
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^cachegate_overlay_entries\{kind="live"\} 2$/m);
    expect(text).toMatch(/^cachegate_overlay_evictions_total\{cause="cache"\} 3$/m);
  });

  it('case 4: cachegate_leader says at each scrape whether the process leads', async () => {
    let leading = true;
    const metrics = createMetrics({ ...NOTHING_OBSERVED, leading: () => leading });
    expect(await metrics.registry.metrics()).toMatch(/^cachegate_leader 1$/m);
    leading = false;
    expect(await metrics.registry.metrics()).toMatch(/^cachegate_leader 0$/m);
  });

  it('case 5: the storage client thread heap gauges have a series only while there is a thread', async () => {
    let heap: { backend: string; usedBytes: number; totalBytes: number } | undefined = { backend: 'etcd', usedBytes: 1000, totalBytes: 4000 };
    const metrics = createMetrics({ ...NOTHING_OBSERVED, storageThreadHeap: async () => heap });
    let text = await metrics.registry.metrics();
    expect(text).toMatch(/^cachegate_storage_thread_heap_used_bytes\{backend="etcd"\} 1000$/m);
    expect(text).toMatch(/^cachegate_storage_thread_heap_total_bytes\{backend="etcd"\} 4000$/m);
    heap = undefined;
    text = await metrics.registry.metrics();
    expect(text).not.toMatch(/^cachegate_storage_thread_heap_used_bytes\{/m);
    expect(text).toMatch(/^# TYPE cachegate_storage_thread_heap_used_bytes gauge$/m);
    expect(await createMetrics(NOTHING_OBSERVED).registry.metrics()).not.toMatch(/^cachegate_storage_thread_heap_total_bytes\{/m);
  });
});
