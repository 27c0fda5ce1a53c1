import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ItemExponentialRateLimiter } from '../../../../src/controllers/runtime/rate-limiter.js';
import { WorkQueue } from '../../../../src/controllers/runtime/work-queue.js';

/** settled tells whether a promise has settled, after letting pending microtasks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

/** drain takes every queued item without waiting, marking each done. */
async function drain(queue: WorkQueue): Promise<string[]> {
  const items: string[] = [];
  while (queue.len() > 0) {
    const item = await queue.get();
    if (item === undefined) break;
    items.push(item);
    queue.done(item);
  }
  return items;
}

describe('WorkQueue: fair and stingy', () => {
  it('case 1: hands items out in the order they were added', async () => {
    const queue = new WorkQueue({ name: 'q' });
    for (const item of ['c', 'a', 'b']) queue.add(item);
    expect(await drain(queue)).toEqual(['c', 'a', 'b']);
  });

  it('case 2: an item added twice while waiting is queued once, in its first place', async () => {
    const queue = new WorkQueue({ name: 'q' });
    for (const item of ['a', 'b', 'a', 'c', 'b']) queue.add(item);
    expect(queue.len()).toBe(3);
    expect(await drain(queue)).toEqual(['a', 'b', 'c']);
  });

  it('case 3: an item re-added while processing is not handed out until done', async () => {
    const queue = new WorkQueue({ name: 'q' });
    queue.add('a');
    expect(await queue.get()).toBe('a');
    queue.add('a');
    expect(queue.len()).toBe(0);
    const next = queue.get();
    expect(await settled(next)).toBe(false);
    queue.done('a');
    expect(await next).toBe('a');
  });

  it('case 4: an item re-added many times while processing runs once more', async () => {
    const queue = new WorkQueue({ name: 'q' });
    queue.add('a');
    expect(await queue.get()).toBe('a');
    for (let i = 0; i < 5; i++) queue.add('a');
    queue.add('b');
    expect(await queue.get()).toBe('b'); // a is held, so b goes first
    queue.done('a');
    queue.done('b');
    expect(queue.len()).toBe(1);
    expect(await drain(queue)).toEqual(['a']);
    expect(queue.len()).toBe(0);
  });

  it('case 5: get waits for an add when the queue is empty', async () => {
    const queue = new WorkQueue({ name: 'q' });
    const first = queue.get();
    const second = queue.get();
    expect(await settled(first)).toBe(false);
    queue.add('x');
    queue.add('y');
    expect([await first, await second]).toEqual(['x', 'y']);
  });

  it('case 6: done of an item not being processed changes nothing', async () => {
    const queue = new WorkQueue({ name: 'q' });
    queue.add('a');
    queue.done('a');
    queue.done('zzz');
    expect(queue.len()).toBe(1);
    expect(await queue.get()).toBe('a');
  });

  it('case 7: tryGet hands out a waiting item at once, with get\'s rules, and nothing when none waits or after shutDown', async () => {
    const queue = new WorkQueue({ name: 'q' });
    expect(queue.tryGet()).toBeUndefined();
    queue.add('a');
    queue.add('b');
    expect(queue.tryGet()).toBe('a');
    queue.add('a'); // held: not handed out again until done
    expect(queue.tryGet()).toBe('b');
    expect(queue.tryGet()).toBeUndefined();
    queue.done('a');
    expect(queue.tryGet()).toBe('a');
    queue.add('c');
    queue.shutDown();
    expect(queue.tryGet()).toBeUndefined();
    expect(await queue.get()).toBeUndefined();
  });
});

describe('WorkQueue: delayed and rate-limited adds', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('case 1: addAfter adds items in the order their delays expire', async () => {
    const queue = new WorkQueue({ name: 'q', now: () => Date.now() });
    queue.addAfter('slow', 30);
    queue.addAfter('fast', 10);
    queue.addAfter('mid', 20);
    await vi.advanceTimersByTimeAsync(9);
    expect(queue.len()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(queue.len()).toBe(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(await drain(queue)).toEqual(['fast', 'mid', 'slow']);
  });

  it('case 2: a later, shorter addAfter wins and the longer one never fires', async () => {
    const queue = new WorkQueue({ name: 'q', now: () => Date.now() });
    queue.addAfter('a', 100);
    queue.addAfter('a', 10);
    await vi.advanceTimersByTimeAsync(10);
    expect(await drain(queue)).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(200);
    expect(queue.len()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('case 3: a later, longer addAfter is ignored', async () => {
    const queue = new WorkQueue({ name: 'q', now: () => Date.now() });
    queue.addAfter('a', 10);
    queue.addAfter('a', 100);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(await drain(queue)).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(200);
    expect(queue.len()).toBe(0);
  });

  it('case 4: addAfter with 0 or a negative delay adds at once', () => {
    const queue = new WorkQueue({ name: 'q' });
    queue.addAfter('a', 0);
    queue.addAfter('b', -5);
    expect(queue.len()).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('case 5: addRateLimited waits 5, 10, 20 ms and forget resets the backoff', async () => {
    const queue = new WorkQueue({ name: 'q', rateLimiter: new ItemExponentialRateLimiter(5, 1000), now: () => Date.now() });
    for (const wait of [5, 10, 20]) {
      queue.addRateLimited('a');
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(queue.len()).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(await drain(queue)).toEqual(['a']);
    }
    expect(queue.numRequeues('a')).toBe(3);
    queue.forget('a');
    expect(queue.numRequeues('a')).toBe(0);
    queue.addRateLimited('a');
    await vi.advanceTimersByTimeAsync(5);
    expect(queue.len()).toBe(1);
  });
});

describe('WorkQueue: timers', () => {
  afterEach(() => vi.restoreAllMocks());

  it('case 1: delay timers do not keep the process alive', () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const queue = new WorkQueue({ name: 'q' });
    queue.addAfter('a', 60_000);
    const timer = spy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    queue.shutDown();
  });
});

describe('WorkQueue: shut down', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('case 1: shutDown resolves waiting gets with undefined and later gets too', async () => {
    const queue = new WorkQueue({ name: 'q' });
    const waiting = [queue.get(), queue.get()];
    queue.shutDown();
    expect(await Promise.all(waiting)).toEqual([undefined, undefined]);
    expect(await queue.get()).toBeUndefined();
    expect(queue.isShuttingDown).toBe(true);
  });

  it('case 2: after shutDown queued items are not handed out and adds are ignored', async () => {
    const queue = new WorkQueue({ name: 'q' });
    queue.add('a');
    queue.shutDown();
    queue.add('b');
    queue.addAfter('c', 0);
    queue.addRateLimited('d');
    expect(queue.len()).toBe(1);
    expect(await queue.get()).toBeUndefined();
  });

  it('case 3: shutDown cancels delayed adds', async () => {
    const queue = new WorkQueue({ name: 'q' });
    queue.addAfter('a', 10);
    queue.addAfter('b', 20);
    queue.shutDown();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(50);
    expect(queue.len()).toBe(0);
  });

  it('case 4: shutDownWithDrain resolves only when every item in flight is done', async () => {
    const queue = new WorkQueue({ name: 'q' });
    queue.add('a');
    queue.add('b');
    queue.add('c');
    const a = await queue.get();
    const b = await queue.get();
    const drained = queue.shutDownWithDrain();
    expect(await queue.get()).toBeUndefined(); // c is not handed out
    queue.done(a ?? '');
    expect(await settled(drained)).toBe(false);
    queue.add(b ?? ''); // re-add during drain is ignored
    queue.done(b ?? '');
    expect(await settled(drained)).toBe(true);
    expect(queue.len()).toBe(1);
  });

  it('case 5: shutDownWithDrain with nothing in flight resolves at once', async () => {
    const queue = new WorkQueue({ name: 'q' });
    queue.add('a');
    expect(await settled(queue.shutDownWithDrain())).toBe(true);
  });
});
