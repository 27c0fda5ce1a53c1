// TokenBucketLimiter with an injected clock: burst, refill, Retry-After and independent keys.

import { describe, expect, it } from 'vitest';
import { TokenBucketLimiter } from '../../../src/auth/rate-limiter.js';

function limiter(requestsPerSecond: number, burst: number) {
  const clock = { ms: 0 };
  return { clock, limiter: new TokenBucketLimiter<object>({ requestsPerSecond, burst, now: () => clock.ms }) };
}

describe('TokenBucketLimiter', () => {
  it('case 1: a full bucket admits the burst at once, then refuses with the seconds to wait', () => {
    const { limiter: l } = limiter(2, 3);
    const key = {};
    expect([l.take(key), l.take(key), l.take(key)]).toEqual([0, 0, 0]);
    expect(l.take(key)).toBe(1); // one token comes back in 0.5 s: Retry-After rounds up to 1
  });

  it('case 2: tokens come back at the configured rate, never above the burst', () => {
    const { clock, limiter: l } = limiter(1, 2);
    const key = {};
    l.take(key);
    l.take(key);
    expect(l.take(key)).toBe(1);
    clock.ms += 1000;
    expect(l.take(key)).toBe(0);
    expect(l.take(key)).toBe(1);
    clock.ms += 60_000;
    expect([l.take(key), l.take(key), l.take(key)]).toEqual([0, 0, 1]);
  });

  it('case 3: a slow rate gives a long Retry-After', () => {
    const { clock, limiter: l } = limiter(1, 1);
    const key = {};
    expect(l.take(key)).toBe(0);
    clock.ms += 250;
    expect(l.take(key)).toBe(1);
    const slow = new TokenBucketLimiter<object>({ requestsPerSecond: 0.1, burst: 1, now: () => 0 });
    slow.take(key);
    expect(slow.take(key)).toBe(10);
  });

  it('case 4: each key has its own bucket', () => {
    const { limiter: l } = limiter(1, 1);
    const a = {};
    const b = {};
    expect(l.take(a)).toBe(0);
    expect(l.take(a)).toBe(1);
    expect(l.take(b)).toBe(0);
  });
});
