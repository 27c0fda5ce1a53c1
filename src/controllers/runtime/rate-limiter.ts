// How long a work queue makes an item wait before it is retried, after client-go's
// util/workqueue rate limiters. The limiters form one family, so they share this file.

/** RateLimiter decides how long an item waits before it is added back to a queue. */
export interface RateLimiter {
  /** when records one more failure of item and returns the milliseconds it should wait. */
  when(item: string): number;
  /** forget clears item's failure history, as after a successful run. */
  forget(item: string): void;
  /** retries is the number of failures recorded for item since it was last forgotten. */
  retries(item: string): number;
}

/** ItemExponentialRateLimiter waits base·2^failures per item, capped at maxMs. */
export class ItemExponentialRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly baseMs = 5,
    private readonly maxMs = 1_000_000,
  ) {
    if (!(baseMs >= 0) || !(maxMs >= 0)) throw new RangeError('ItemExponentialRateLimiter needs baseMs >= 0 and maxMs >= 0');
  }

  /** when returns base·2^failures (capped) and counts one more failure. */
  when(item: string): number {
    const failures = this.failures.get(item) ?? 0;
    this.failures.set(item, failures + 1);
    // 2 ** failures becomes Infinity long before the counter overflows; the cap keeps it finite.
    return Math.min(this.baseMs * 2 ** failures, this.maxMs);
  }

  /** forget drops item's failure count. */
  forget(item: string): void {
    this.failures.delete(item);
  }

  /** retries is item's failure count. */
  retries(item: string): number {
    return this.failures.get(item) ?? 0;
  }
}

/** BucketRateLimiter is one token bucket shared by all items: qps tokens a second, burst at most. */
export class BucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps = 10,
    private readonly burst = 100,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(qps > 0) || !(burst >= 1)) throw new RangeError('BucketRateLimiter needs qps > 0 and burst >= 1');
    this.tokens = burst;
    this.last = now();
  }

  /** when takes a token, going into debt if none is left, and returns the wait until it is earned. */
  when(_item: string): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
    this.tokens -= 1;
    // A negative balance is a reservation: the caller waits until the refill pays it back.
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }

  /** forget does nothing: the bucket does not track items. */
  forget(_item: string): void {}

  /** retries is always 0: the bucket does not track items. */
  retries(_item: string): number {
    return 0;
  }
}

/** MaxOfRateLimiter waits as long as the slowest of its limiters. */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: readonly RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  /** when asks every limiter (each must record the failure) and returns the longest wait. */
  when(item: string): number {
    return this.limiters.reduce((longest, limiter) => Math.max(longest, limiter.when(item)), 0);
  }

  /** forget forgets item in every limiter. */
  forget(item: string): void {
    for (const limiter of this.limiters) limiter.forget(item);
  }

  /** retries is the highest count any limiter keeps for item. */
  retries(item: string): number {
    return this.limiters.reduce((most, limiter) => Math.max(most, limiter.retries(item)), 0);
  }
}

/** defaultControllerRateLimiter is client-go's default: per-item 5 ms → 1000 s, overall 10 qps, burst 100. */
export function defaultControllerRateLimiter(now?: () => number): RateLimiter {
  return new MaxOfRateLimiter(new ItemExponentialRateLimiter(5, 1_000_000), new BucketRateLimiter(10, 100, now));
}
