// The reconnect backoff of the reflectors and the pause that waits it out, on vitest's fake
// clock: the delays double up to the cap and start over after a reset; a pause ends when its
// time has passed on the clock, or at once when the reflector stops.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Backoff, DEFAULT_BACKOFF } from '../../../src/kube/backoff.js';
import { InterruptiblePause } from '../../../src/kube/interruptible-pause.js';

/** delays takes n delays from a backoff. */
function delays(backoff: Backoff, n: number): number[] {
  return Array.from({ length: n }, () => backoff.next());
}

/** ended follows a promise: false while pending, true once it resolved. */
function ended(pending: Promise<void>): () => boolean {
  let done = false;
  void pending.then(() => (done = true));
  return () => done;
}

describe('Backoff', () => {
  it('case 1: doubles from the first delay up to the cap', () => {
    expect(delays(new Backoff({ initialMs: 20, maxMs: 200 }), 6)).toEqual([20, 40, 80, 160, 200, 200]);
  });

  it('case 2: the default starts at 200 ms and stops doubling at 5 s', () => {
    expect(DEFAULT_BACKOFF).toEqual({ initialMs: 200, maxMs: 5000 });
    expect(delays(new Backoff(), 7)).toEqual([200, 400, 800, 1600, 3200, 5000, 5000]);
  });

  it('case 3: reset starts over from the first delay', () => {
    const backoff = new Backoff({ initialMs: 10, maxMs: 1000 });
    delays(backoff, 5);
    backoff.reset();
    expect(delays(backoff, 3)).toEqual([10, 20, 40]);
  });

  it('case 4: a cap below the first delay is raised to it, and very many failures stay at the cap', () => {
    expect(delays(new Backoff({ initialMs: 300, maxMs: 100 }), 2)).toEqual([300, 300]);
    expect(delays(new Backoff({ initialMs: 1, maxMs: 60_000 }), 5000).at(-1)).toBe(60_000);
  });
});

describe('InterruptiblePause (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('case 5: a pause ends when its time has passed on the clock, not before', async () => {
    const pause = new InterruptiblePause();
    const done = ended(pause.sleep(new Backoff({ initialMs: 400 }).next()));
    await vi.advanceTimersByTimeAsync(399);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done()).toBe(true);
  });

  it('case 6: stop ends the current pause at once, and every later one', async () => {
    const pause = new InterruptiblePause();
    const current = ended(pause.sleep(5000));
    await vi.advanceTimersByTimeAsync(10);
    pause.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(current()).toBe(true);
    const later = ended(pause.sleep(5000));
    await vi.advanceTimersByTimeAsync(0);
    expect(later()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
