// The heap of the worker thread a durable backend runs its client in (etcd). The runtime's heap
// metrics (nodejs_heap_size_*) and process.memoryUsage() see the main thread's V8 heap alone;
// the process's RSS holds this one too, and without these gauges nothing accounts for it.

import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { STORAGE_THREAD_HEAP_TOTAL_METRIC, STORAGE_THREAD_HEAP_USED_METRIC } from './metric-names.js';

/** ObservedThreadHeap is the client thread's heap in bytes, with the backend's kind; undefined while there is no such thread. */
export type ObservedThreadHeap = () => Promise<{ readonly backend: string; readonly usedBytes: number; readonly totalBytes: number } | undefined>;

/**
 * observeStorageThreadHeap registers the used and total heap gauges of the backend's client
 * thread, labelled by backend kind: without a thread they have no series (an unlabelled gauge
 * would show 0, which reads as a thread with an empty heap).
 */
export function observeStorageThreadHeap(registry: Registry, heap: ObservedThreadHeap): void {
  // One reading serves both gauges of one scrape: prom-client starts every collect at once.
  let reading: ReturnType<ObservedThreadHeap> | undefined;
  const read = (): ReturnType<ObservedThreadHeap> => {
    reading ??= heap().finally(() => (reading = undefined));
    return reading;
  };
  const gauges = [
    { name: STORAGE_THREAD_HEAP_USED_METRIC, field: 'usedBytes', help: "V8 heap in use in the storage backend's client thread (etcd), in bytes; the nodejs_heap_* metrics count the main thread's only." },
    { name: STORAGE_THREAD_HEAP_TOTAL_METRIC, field: 'totalBytes', help: "V8 heap reserved by the storage backend's client thread (etcd), in bytes." },
  ] as const;
  for (const { name, field, help } of gauges) {
    new Gauge({
      name, help, labelNames: ['backend'] as const, registers: [registry],
      async collect() {
        const now = await read();
        this.reset();
        if (now !== undefined) this.set({ backend: now.backend }, now[field]);
      },
    });
  }
}
