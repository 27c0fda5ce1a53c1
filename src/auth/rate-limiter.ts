// Per-token rate limiting: one token bucket per principal, refilled continuously at
// requestsPerSecond up to burst. A request takes one token; when the bucket is empty the request
// is refused with the whole seconds until a token is back (the Retry-After of the 429). The clock
// is injected so tests need no sleeping. Buckets live in a WeakMap keyed by the principal: one
// per configured token, gone with the app.

/** RateLimiterOptions: the sustained rate, the burst, and the clock in milliseconds. */
export interface RateLimiterOptions {
  readonly requestsPerSecond: number;
  readonly burst: number;
  readonly now?: () => number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** TokenBucketLimiter admits or refuses requests per key. */
export class TokenBucketLimiter<K extends object> {
  readonly #buckets = new WeakMap<K, Bucket>();
  readonly #ratePerMs: number;
  readonly #burst: number;
  readonly #now: () => number;

  constructor(opts: RateLimiterOptions) {
    this.#ratePerMs = opts.requestsPerSecond / 1000;
    this.#burst = opts.burst;
    this.#now = opts.now ?? (() => performance.now());
  }

  /** take admits a request (returns 0) or refuses it (returns the seconds to wait, at least 1). */
  take(key: K): number {
    const now = this.#now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#burst, updatedAt: now };
    bucket.tokens = Math.min(this.#burst, bucket.tokens + (now - bucket.updatedAt) * this.#ratePerMs);
    bucket.updatedAt = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.#ratePerMs / 1000));
  }
}
