// When the etcd client thread collects its garbage by itself: only once it has been idle for the
// idle period, and only when its heap has grown by the threshold since the last collection.
//   case 1: a thread busy within the idle period is not collected
//   case 2: an idle thread whose heap has not grown enough is not collected
//   case 3: an idle thread whose heap has grown is collected, once
//   case 4: after a collection, growth is counted from the heap the collection left
//   case 5: activity after a collection postpones the next one until the thread is idle again
//   case 6: in a worker thread, the collection returns the garbage's heap, and no context gains `gc`

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { IdleCollector } from '../../../src/storage/etcd/idle-collector.js';

const MiB = 2 ** 20;

/** harness is a collector over a fake clock and heap; collect() shrinks the heap to live. */
function harness(live = 10 * MiB): { collector: IdleCollector; clock: { now: number }; heap: { bytes: number }; collections: () => number } {
  const clock = { now: 0 };
  const heap = { bytes: live };
  let collections = 0;
  const collector = new IdleCollector({
    idleMs: 1000, growthBytes: 8 * MiB, now: () => clock.now, heapBytes: () => heap.bytes,
    collect: () => {
      collections++;
      heap.bytes = live;
    },
  });
  return { collector, clock, heap, collections: () => collections };
}

describe('IdleCollector', () => {
  it('case 1: a thread busy within the idle period is not collected', () => {
    const { collector, clock, heap, collections } = harness();
    heap.bytes += 40 * MiB;
    clock.now = 900;
    expect(collector.check()).toBe(false);
    collector.touch();
    clock.now = 1800;
    expect(collector.check()).toBe(false);
    expect(collections()).toBe(0);
  });

  it('case 2: an idle thread whose heap has not grown enough is not collected', () => {
    const { collector, clock, heap, collections } = harness();
    heap.bytes += 8 * MiB - 1;
    clock.now = 5000;
    expect(collector.check()).toBe(false);
    expect(collections()).toBe(0);
  });

  it('case 3: an idle thread whose heap has grown is collected, once', () => {
    const { collector, clock, heap, collections } = harness();
    heap.bytes += 8 * MiB;
    clock.now = 1000;
    expect(collector.check()).toBe(true);
    clock.now = 2000;
    expect(collector.check()).toBe(false);
    expect(collections()).toBe(1);
  });

  it('case 4: after a collection, growth is counted from the heap the collection left', () => {
    const { collector, clock, heap, collections } = harness(12 * MiB);
    heap.bytes = 50 * MiB;
    clock.now = 1000;
    expect(collector.check()).toBe(true);
    heap.bytes = 12 * MiB + 7 * MiB;
    clock.now = 3000;
    expect(collector.check()).toBe(false);
    heap.bytes = 12 * MiB + 8 * MiB;
    expect(collector.check()).toBe(true);
    expect(collections()).toBe(2);
  });

  it('case 5: activity after a collection postpones the next one until the thread is idle again', () => {
    const { collector, clock, heap, collections } = harness();
    heap.bytes += 20 * MiB;
    clock.now = 1000;
    collector.check();
    clock.now = 1500;
    collector.touch();
    heap.bytes += 20 * MiB;
    clock.now = 2400;
    expect(collector.check()).toBe(false);
    clock.now = 2500;
    expect(collector.check()).toBe(true);
    expect(collections()).toBe(2);
  });

  it('case 6: in a worker thread, the collection returns the garbage\'s heap, and no context gains `gc`', async () => {
    const result = await inWorker(`
      const v8 = await import('node:v8');
      const { IdleCollector } = await import(${JSON.stringify(new URL('../../../src/storage/etcd/idle-collector.ts', import.meta.url).href)});
      const collector = new IdleCollector({ idleMs: 0, growthBytes: 0 });
      // Garbage that lives long enough to reach the old generation, as a list's pages do.
      let held = [];
      for (let round = 0; round < 4; round++) {
        held = [];
        for (let i = 0; i < 200000; i++) held.push({ name: 'object-' + i + '-' + round, values: [i, round] });
      }
      held = undefined;
      const before = v8.getHeapStatistics().total_heap_size;
      const collected = collector.check();
      return { collected, before, after: v8.getHeapStatistics().total_heap_size, gcGlobal: typeof globalThis.gc };
    `) as { collected: boolean; before: number; after: number; gcGlobal: string };
    expect(result.collected).toBe(true);
    expect(result.after).toBeLessThan(result.before / 2);
    expect(result.gcGlobal).toBe('undefined');
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
  });
});

/** inWorker runs an async function body in a new worker thread (TypeScript loaded by tsx) and resolves with what it returns. */
function inWorker(body: string): Promise<unknown> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const source = `import { parentPort } from 'node:worker_threads';\nparentPort.postMessage(await (async () => {${body}})());`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { execArgv: ['--import', tsx] });
  return new Promise((resolve, reject) => {
    worker.once('message', (value: unknown) => {
      resolve(value);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
