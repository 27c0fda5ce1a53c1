import { describe, expect, it } from 'vitest';
import {
  BucketRateLimiter,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from '../../../../src/controllers/runtime/rate-limiter.js';

/** whens calls when(item) n times. */
function whens(limiter: { when(item: string): number }, item: string, n: number): number[] {
  return Array.from({ length: n }, () => limiter.when(item));
}

describe('ItemExponentialRateLimiter', () => {
  it('case 1: doubles from the base per failure: 5, 10, 20, 40, 80', () => {
    expect(whens(new ItemExponentialRateLimiter(), 'a', 5)).toEqual([5, 10, 20, 40, 80]);
  });

  it('case 2: is capped at maxMs', () => {
    expect(whens(new ItemExponentialRateLimiter(5, 30), 'a', 6)).toEqual([5, 10, 20, 30, 30, 30]);
  });

  it('case 3: stays at the cap after very many failures (no Infinity or NaN)', () => {
    const limiter = new ItemExponentialRateLimiter(5, 1_000_000);
    const last = whens(limiter, 'a', 3000).at(-1);
    expect(last).toBe(1_000_000);
    expect(limiter.retries('a')).toBe(3000);
  });

  it('case 4: counts retries per item and forget resets only that item', () => {
    const limiter = new ItemExponentialRateLimiter();
    whens(limiter, 'a', 3);
    whens(limiter, 'b', 1);
    expect([limiter.retries('a'), limiter.retries('b'), limiter.retries('c')]).toEqual([3, 1, 0]);
    limiter.forget('a');
    expect(limiter.retries('a')).toBe(0);
    expect(limiter.when('a')).toBe(5);
    expect(limiter.when('b')).toBe(10);
  });

  it('case 5: rejects a negative base', () => {
    expect(() => new ItemExponentialRateLimiter(-1)).toThrow(RangeError);
  });
});

describe('BucketRateLimiter', () => {
  it('case 1: lets a burst through, then spaces items 1/qps apart', () => {
    const limiter = new BucketRateLimiter(10, 3, () => 0);
    const waits = whens(limiter, 'x', 6);
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeCloseTo(100);
    expect(waits[4]).toBeCloseTo(200);
    expect(waits[5]).toBeCloseTo(300);
  });

  it('case 2: refills with time, up to the burst', () => {
    let now = 0;
    const limiter = new BucketRateLimiter(10, 3, () => now);
    whens(limiter, 'x', 4); // one token of debt
    now = 10_000; // far more than enough to refill the bucket
    const waits = whens(limiter, 'x', 4);
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeCloseTo(100);
  });

  it('case 3: a partial refill shortens the wait', () => {
    let now = 0;
    const limiter = new BucketRateLimiter(10, 1, () => now);
    expect(limiter.when('x')).toBe(0);
    now = 40;
    expect(limiter.when('x')).toBeCloseTo(60);
  });

  it('case 4: is shared by all items and tracks none', () => {
    const limiter = new BucketRateLimiter(10, 1, () => 0);
    expect(limiter.when('a')).toBe(0);
    expect(limiter.when('b')).toBeCloseTo(100);
    limiter.forget('b');
    expect(limiter.retries('b')).toBe(0);
  });

  it('case 5: rejects qps <= 0 and burst < 1', () => {
    expect(() => new BucketRateLimiter(0, 1)).toThrow(RangeError);
    expect(() => new BucketRateLimiter(1, 0)).toThrow(RangeError);
  });
});

describe('MaxOfRateLimiter and defaultControllerRateLimiter', () => {
  it('case 1: returns the longest wait and forwards forget and retries', () => {
    const fast = new ItemExponentialRateLimiter(1, 1000);
    const slow = new ItemExponentialRateLimiter(10, 1000);
    const limiter = new MaxOfRateLimiter(fast, slow);
    expect(whens(limiter, 'a', 3)).toEqual([10, 20, 40]);
    expect(fast.retries('a')).toBe(3);
    expect(limiter.retries('a')).toBe(3);
    limiter.forget('a');
    expect([fast.retries('a'), slow.retries('a')]).toEqual([0, 0]);
  });

  it('case 2: with no limiters waits 0', () => {
    expect(new MaxOfRateLimiter().when('a')).toBe(0);
  });

  it('case 3: the default backs one item off exponentially from 5 ms', () => {
    expect(whens(defaultControllerRateLimiter(() => 0), 'a', 4)).toEqual([5, 10, 20, 40]);
  });

  it('case 4: the default caps an item at 1000 s', () => {
    let now = 0;
    const limiter = defaultControllerRateLimiter(() => now);
    let last = 0;
    for (let i = 0; i < 40; i++) {
      now += 10_000_000; // keep the bucket full so only the per-item limit shows
      last = limiter.when('a');
    }
    expect(last).toBe(1_000_000);
  });

  it('case 5: the default lets 100 items through, then spaces them at 10 qps', () => {
    const limiter = defaultControllerRateLimiter(() => 0);
    const waits = Array.from({ length: 102 }, (_, i) => limiter.when(`item-${i}`));
    expect(waits.slice(0, 100).every((w) => w === 5)).toBe(true);
    expect(waits[100]).toBeCloseTo(100);
    expect(waits[101]).toBeCloseTo(200);
  });
});
