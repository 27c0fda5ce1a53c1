import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Registry } from 'prom-client';
import { RETRY_MESSAGE, TERMINAL_MESSAGE } from '../../../../src/controllers/runtime/controller.js';
import type { ReconcileFn } from '../../../../src/controllers/runtime/controller.js';
import { TerminalError } from '../../../../src/controllers/runtime/terminal-error.js';
import { capturedLog, metricValue, sleep, testController } from './helpers.js';

const TOTAL = 'cachegate_controller_reconcile_total';
const ERRORS = 'cachegate_controller_reconcile_errors_total';

describe('Controller: one reconcile per key at a time (fake timers: each run takes 5 or 10 ms of them)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('case 1: four workers never run one key concurrently, and a re-add during a run runs once more', async () => {
    const active = new Map<string, number>();
    const maxActive = new Map<string, number>();
    const runs = new Map<string, number>();
    const reconcile: ReconcileFn = async (key) => {
      const now = (active.get(key) ?? 0) + 1;
      active.set(key, now);
      maxActive.set(key, Math.max(maxActive.get(key) ?? 0, now));
      runs.set(key, (runs.get(key) ?? 0) + 1);
      if (key === 'a' && runs.get('a') === 1) for (let i = 0; i < 3; i++) c.enqueue('a');
      await sleep(5);
      active.set(key, (active.get(key) ?? 1) - 1);
    };
    // reconcile reaches c only once started, after the declaration below.
    const c = testController(reconcile, { workers: 4 });
    c.start();
    c.enqueue('a');
    for (let i = 0; i < 40; i++) {
      c.enqueue(`k${i % 4}`);
      if (i % 8 === 0) await vi.advanceTimersByTimeAsync(1);
    }
    // Far longer than all the queued work takes on the fake clock: every run has happened.
    await vi.advanceTimersByTimeAsync(10_000);
    await c.stop();
    expect(runs.get('a')).toBe(2);
    expect([...maxActive.values()].every((n) => n === 1)).toBe(true);
    expect([...maxActive.keys()].sort()).toEqual(['a', 'k0', 'k1', 'k2', 'k3']);
  });

  it('case 2: different keys do run in parallel on several workers', async () => {
    let active = 0;
    let peak = 0;
    const c = testController(
      async () => {
        peak = Math.max(peak, ++active);
        await sleep(10);
        active--;
      },
      { workers: 3 },
    );
    c.start();
    for (const key of ['x', 'y', 'z']) c.enqueue(key);
    // Each run takes 10 ms of the fake clock: halfway, all three are running.
    await vi.advanceTimersByTimeAsync(5);
    expect(peak).toBe(3);
    await vi.advanceTimersByTimeAsync(10);
    await c.stop();
  });
});

describe('Controller: outcomes (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('case 1: a success is counted and the key is not run again', async () => {
    const registry = new Registry();
    const reconcile = vi.fn(async () => undefined);
    const c = testController(reconcile, { registry });
    c.start();
    c.enqueue('a');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reconcile).toHaveBeenCalledTimes(1);
    expect(await metricValue(registry, TOTAL, { controller: 'c', result: 'success' })).toBe(1);
    await c.stop();
  });

  it('case 2: errors are retried after 5, 10, 20 ms, then retrying stops after success', async () => {
    const registry = new Registry();
    const { log, lines } = capturedLog();
    const times: number[] = [];
    const c = testController(
      async (key) => {
        times.push(Date.now());
        if (times.length <= 3) throw new Error(`boom ${key}`);
      },
      { registry, log },
    );
    const start = Date.now();
    c.start();
    c.enqueue('a');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(times.map((t) => t - start)).toEqual([0, 5, 15, 35]);
    expect(c.queue.numRequeues('a')).toBe(0);
    expect(lines.map((l) => [l.msg, l.controller, l.key, (l.err as { message: string }).message])).toEqual([
      [RETRY_MESSAGE, 'c', 'a', 'boom a'],
      [RETRY_MESSAGE, 'c', 'a', 'boom a'],
      [RETRY_MESSAGE, 'c', 'a', 'boom a'],
    ]);
    expect(await metricValue(registry, TOTAL, { result: 'error' })).toBe(3);
    expect(await metricValue(registry, TOTAL, { result: 'success' })).toBe(1);
    expect(await metricValue(registry, ERRORS, { controller: 'c' })).toBe(3);
    expect(await metricValue(registry, 'cachegate_workqueue_retries_total', { name: 'c' })).toBe(3);
    await c.stop();
  });

  it('case 3: a TerminalError is logged once and not retried', async () => {
    const registry = new Registry();
    const { log, lines } = capturedLog();
    const reconcile = vi.fn(async () => {
      throw new TerminalError(new Error('spec is invalid'));
    });
    const c = testController(reconcile, { registry, log });
    c.start();
    c.enqueue('a');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reconcile).toHaveBeenCalledTimes(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: TERMINAL_MESSAGE, controller: 'c', key: 'a', err: { message: 'terminal error: spec is invalid' } });
    expect(c.queue.numRequeues('a')).toBe(0);
    expect(await metricValue(registry, ERRORS, { controller: 'c' })).toBe(1);
    await c.stop();
  });

  it('case 4: a TerminalError wrapped as the cause of another error is not retried either', async () => {
    const reconcile = vi.fn(async () => {
      throw new Error('update failed', { cause: new TerminalError('bad spec') });
    });
    const c = testController(reconcile);
    c.start();
    c.enqueue('a');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reconcile).toHaveBeenCalledTimes(1);
    await c.stop();
  });

  it('case 5: requeueAfterMs runs the key again after that delay, without backoff', async () => {
    const registry = new Registry();
    const times: number[] = [];
    const c = testController(
      async () => {
        times.push(Date.now());
        return times.length < 3 ? { requeueAfterMs: 50 } : {};
      },
      { registry },
    );
    const start = Date.now();
    c.start();
    c.enqueue('a');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(times.map((t) => t - start)).toEqual([0, 50, 100]);
    expect(await metricValue(registry, TOTAL, { result: 'requeue_after' })).toBe(2);
    expect(await metricValue(registry, 'cachegate_workqueue_retries_total')).toBe(0);
    await c.stop();
  });

  it('case 6: a reconcile that throws synchronously or rejects with a non-error does not kill the worker', async () => {
    const seen: string[] = [];
    const reconcile = ((key: string) => {
      seen.push(key);
      if (key === 'sync') throw new Error('sync throw');
      if (key === 'odd') return Promise.reject('a string');
      return Promise.resolve();
    }) as ReconcileFn;
    const c = testController(reconcile);
    c.start();
    c.enqueue('sync');
    c.enqueue('odd');
    c.enqueue('good');
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.slice(0, 3)).toEqual(['sync', 'odd', 'good']);
    c.queue.forget('sync');
    await vi.advanceTimersByTimeAsync(100);
    expect(seen.filter((k) => k === 'good')).toHaveLength(1);
    expect(seen.filter((k) => k === 'sync').length).toBeGreaterThan(1); // still retried
    await c.stop();
  });

  it('case 7: enqueueAfter runs the key after the delay', async () => {
    const times: number[] = [];
    const c = testController(async () => void times.push(Date.now()));
    const start = Date.now();
    c.start();
    c.enqueueAfter('a', 40);
    await vi.advanceTimersByTimeAsync(100);
    expect(times.map((t) => t - start)).toEqual([40]);
    await c.stop();
  });
});
