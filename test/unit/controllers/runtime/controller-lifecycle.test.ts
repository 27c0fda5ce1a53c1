import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Registry } from 'prom-client';
import { Controller } from '../../../../src/controllers/runtime/controller.js';
import { deferred, metricValue, silentLog, testController } from './helpers.js';

const TOTAL = 'cachegate_controller_reconcile_total';

describe('Controller: lifecycle (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('case 1: stop waits for the running reconcile and starts no new ones', async () => {
    const gate = deferred();
    const started: string[] = [];
    const c = testController(async (key) => {
      started.push(key);
      await gate.promise;
    });
    c.start();
    c.enqueue('a');
    c.enqueue('b');
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['a']);
    let stopped = false;
    const stopping = c.stop().then(() => (stopped = true));
    // However long the clock runs, stop waits for the reconcile that is still running.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(stopped).toBe(false);
    gate.resolve();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(stopped).toBe(true);
    await stopping;
    c.enqueue('c');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(started).toEqual(['a']);
  });

  it('case 2: stop before start resolves, and start twice is refused', async () => {
    const c = testController(async () => undefined);
    await c.stop();
    const d = testController(async () => undefined);
    d.start();
    expect(() => d.start()).toThrow(/started more than once/);
    await d.stop();
  });

  it('case 3: a controller needs at least one worker', () => {
    expect(() => new Controller({ name: 'c', workers: 0, reconcile: async () => undefined, log: silentLog() })).toThrow(RangeError);
  });

  it('case 4: without a queue it builds its own with the default rate limiter', async () => {
    const reconcile = vi.fn(async () => undefined);
    const c = new Controller({ name: 'own', workers: 2, reconcile, log: silentLog() });
    expect(c.queue.name).toBe('own');
    c.start();
    c.enqueue('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(reconcile).toHaveBeenCalledWith('a');
    await c.stop();
  });

  it('case 5: two controllers of the same name in one process, each with its own registry, do not collide', async () => {
    const [r1, r2] = [new Registry(), new Registry()];
    const c1 = testController(async () => undefined, { registry: r1 });
    const c2 = testController(async () => undefined, { registry: r2 });
    c1.start();
    c2.start();
    c1.enqueue('a');
    c2.enqueue('a');
    c2.enqueue('b');
    await vi.advanceTimersByTimeAsync(0);
    expect(await metricValue(r2, TOTAL, { controller: 'c' })).toBe(2);
    expect(await metricValue(r1, TOTAL, { controller: 'c' })).toBe(1);
    expect(await metricValue(r1, 'cachegate_workqueue_adds_total', { name: 'c' })).toBe(1);
    expect(await metricValue(r2, 'cachegate_workqueue_adds_total', { name: 'c' })).toBe(2);
    await Promise.all([c1.stop(), c2.stop()]);
  });
});
