// Workers whose reconciles finish in microtasks must let the event loop run its timers and I/O
// while a backlog drains. Real timers: what is asserted is an order (a timer fired before most
// of the backlog was done), never a duration.

import { describe, expect, it } from 'vitest';
import { Controller } from '../../../../src/controllers/runtime/controller.js';
import { LoopTurns, TURN_ITEMS, TURN_ITEMS_MAX } from '../../../../src/apimachinery/loop-turns.js';
import { silentLog } from './helpers.js';

const KEYS = 2000;

/** burn keeps the thread busy for about ms, as a reconcile over a large in-memory store does. */
function burn(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

/**
 * Workers whose reconcile counts into done and, past MARK reconciles (when the workers are well
 * into the backlog, resuming from their own yields), sets a timer: how many reconciles ran
 * between setting it and its firing?
 */
const MARK = 200;

function counting(hops = 0, burnMs = 0.2, mark = MARK): { reconcile: () => Promise<void>; firedAfter: Promise<number> } {
  let done = 0;
  let fired: (n: number) => void = () => undefined;
  const firedAfter = new Promise<number>((resolve) => (fired = resolve));
  return {
    firedAfter,
    reconcile: async () => {
      // Each hop lets the other workers' reconciles run a step, as awaits on a store do.
      for (let i = 0; i < hops; i++) await Promise.resolve();
      burn(burnMs);
      done++;
      if (done === mark) setTimeout(() => fired(done - mark), 0);
    },
  };
}

async function runUntilStopped(controllers: readonly Controller[], firedAfter: Promise<number>): Promise<number> {
  for (const c of controllers) c.start();
  const ranMeanwhile = await firedAfter;
  await Promise.all(controllers.map((c) => c.stop()));
  return ranMeanwhile;
}

describe('LoopTurns', () => {
  it('case 1: 64 workers draining 2,000 synchronous reconciles let a timer run before a quarter of them are done', async () => {
    const { reconcile, firedAfter } = counting();
    const c = new Controller({ name: 'burner', workers: 64, log: silentLog(), reconcile });
    for (let i = 0; i < KEYS; i++) c.enqueue(`k${i}`);
    expect(await runUntilStopped([c], firedAfter)).toBeLessThan(KEYS / 4);
  });

  it('case 2: two controllers sharing one LoopTurns yield together: a timer runs before a quarter of their work is done', async () => {
    const { reconcile, firedAfter } = counting();
    const turns = new LoopTurns();
    const controllers = ['a', 'b'].map((name) => new Controller({ name, workers: 32, turns, log: silentLog(), reconcile }));
    for (let i = 0; i < KEYS / 2; i++) for (const c of controllers) c.enqueue(`k${i}`);
    expect(await runUntilStopped(controllers, firedAfter)).toBeLessThan(KEYS / 4);
  });

  it('case 3: callers waiting together share one next turn, after which the budget is fresh', async () => {
    // The turn is spent by the items it started: a time budget this short-lived test could only
    // check with a short budget, which a loaded machine overruns between two lines.
    const turns = new LoopTurns(60_000);
    for (let i = 0; i < TURN_ITEMS; i++) turns.take();
    expect(turns.spent()).toBe(true);
    const first = turns.nextTurn();
    expect(turns.nextTurn()).toBe(first);
    await first;
    expect(turns.spent()).toBe(false);
    expect(turns.nextTurn()).not.toBe(first);
  });

  it('case 4: 256 workers whose reconciles interleave over awaits that finish inside their turn start at most TURN_ITEMS (32) per turn: a timer runs before 128 more are done', async () => {
    // Without a cap on the items a turn starts, every item under way when the time budget runs
    // out (all 256) finishes before any worker looks at the budget. The timer is set in the
    // second 256 items, so without the cap most of them would run before it.
    const { reconcile, firedAfter } = counting(4, 0.05, 300);
    const c = new Controller({ name: 'interleaved', workers: 256, log: silentLog(), reconcile });
    for (let i = 0; i < KEYS; i++) c.enqueue(`k${i}`);
    expect(TURN_ITEMS).toBe(32);
    expect(await runUntilStopped([c], firedAfter)).toBeLessThan(128);
  });

  it('case 5: items that wait on I/O raise the bound to TURN_ITEMS_MAX', async () => {
    const turns = new LoopTurns();
    await startItems(turns, 200, ioWait);
    expect(turns.limit()).toBe(TURN_ITEMS_MAX);
  });

  it('case 6: items that finish in microtasks keep the bound at TURN_ITEMS, in a turn or outside one', async () => {
    const turns = new LoopTurns();
    await startItems(turns, 200, () => Promise.resolve());
    expect(turns.limit()).toBe(TURN_ITEMS);
    await turns.nextTurn();
    await startItems(turns, 200, () => Promise.resolve());
    expect(turns.limit()).toBe(TURN_ITEMS);
  });

  it('case 7: items that finish in the pass they started in bring the bound back after a spell of I/O', async () => {
    const turns = new LoopTurns();
    await startItems(turns, 200, ioWait);
    await turns.nextTurn();
    await startItems(turns, 200, () => Promise.resolve());
    expect(turns.limit()).toBe(TURN_ITEMS);
  });

  it('case 9: workers waiting for a full turn are let in first come first served, as many as a turn may start, the rest a turn later', async () => {
    const turns = new LoopTurns();
    await turns.nextTurn();
    for (let i = 0; i < TURN_ITEMS; i++) expect(turns.tryTake()).toBeDefined();
    expect(turns.tryTake()).toBeUndefined();
    const order: number[] = [];
    const waits = Array.from({ length: TURN_ITEMS + 8 }, (_, i) => turns.takeNext().then(() => order.push(i)));
    await turns.nextTurn();
    // The turn that just started let in its TURN_ITEMS waiting workers, before any newcomer.
    expect(order).toEqual(Array.from({ length: TURN_ITEMS }, (_, i) => i));
    expect(turns.tryTake()).toBeUndefined();
    await Promise.all(waits);
    expect(order).toEqual(Array.from({ length: TURN_ITEMS + 8 }, (_, i) => i));
  });

  it('case 8: once reconciles are seen to wait on I/O, a burst of 256 keys starts in one pass of the loop, not 32 a turn', async () => {
    // The burst is enqueued once every worker is back at the queue (a worker that found the turn
    // spent waits for the next one, so the test waits for it too); the reconciles started before an
    // immediate queued with the burst started in the burst's own pass.
    let started = 0;
    let done = 0;
    let warmedUp: () => void = () => undefined;
    const warmed = new Promise<void>((resolve) => (warmedUp = resolve));
    const turns = new LoopTurns();
    const c = new Controller({
      name: 'io', workers: 256, turns, log: silentLog(), reconcile: async () => {
        started++;
        await ioWait();
        if (++done === 300) warmedUp();
      },
    });
    c.start();
    for (let i = 0; i < 300; i++) c.enqueue(`warm${i}`);
    await warmed;
    await turns.nextTurn();
    const before = started;
    for (let i = 0; i < 256; i++) c.enqueue(`burst${i}`);
    const inOnePass = await new Promise<number>((resolve) => setImmediate(() => resolve(started - before)));
    await c.stop();
    expect(inOnePass).toBeGreaterThan(128);
  });
});

/**
 * ioWait stands for a wait on I/O: it ends in a later pass of the event loop than the one it
 * started in, whichever phase that was (the immediate runs after the one that ends the pass).
 */
async function ioWait(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  await new Promise<void>((resolve) => setTimeout(resolve, 1));
}

/** startItems starts n items in the current turn, as controller workers do, and settles when all have finished. */
function startItems(turns: LoopTurns, n: number, item: () => Promise<void>): Promise<void> {
  const items: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const token = turns.take();
    items.push(item().then(() => turns.finished(token)));
  }
  return Promise.all(items).then(() => undefined);
}
