// Workers whose reconciles finish in microtasks must let the event loop run its timers and I/O
// while a backlog drains. Real timers: what is asserted is an order (a timer fired before most
// of the backlog was done), never a duration.

import { describe, expect, it } from 'vitest';
import { Controller } from '../../../../src/controllers/runtime/controller.js';
import { LoopTurns } from '../../../../src/apimachinery/loop-turns.js';
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

function counting(): { reconcile: () => Promise<void>; firedAfter: Promise<number> } {
  let done = 0;
  let fired: (n: number) => void = () => undefined;
  const firedAfter = new Promise<number>((resolve) => (fired = resolve));
  return {
    firedAfter,
    reconcile: async () => {
      burn(0.2);
      done++;
      if (done === MARK) setTimeout(() => fired(done - MARK), 0);
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
    const turns = new LoopTurns(1);
    burn(2);
    expect(turns.spent()).toBe(true);
    const first = turns.nextTurn();
    expect(turns.nextTurn()).toBe(first);
    await first;
    expect(turns.spent()).toBe(false);
    expect(turns.nextTurn()).not.toBe(first);
  });
});
