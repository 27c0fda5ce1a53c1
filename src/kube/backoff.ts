// Capped exponential backoff for reconnecting to a source: quick retries for a blip, no
// hammering of a server that is down.

/** BackoffOptions: the first delay and the cap, in milliseconds. */
export interface BackoffOptions {
  readonly initialMs?: number;
  readonly maxMs?: number;
}

/** DEFAULT_BACKOFF starts at 200 ms and doubles up to 5 s. */
export const DEFAULT_BACKOFF: Required<BackoffOptions> = Object.freeze({ initialMs: 200, maxMs: 5000 });

/** Backoff hands out doubling delays up to a cap until reset. */
export class Backoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  #failures = 0;

  constructor(opts: BackoffOptions = {}) {
    this.#initialMs = opts.initialMs ?? DEFAULT_BACKOFF.initialMs;
    this.#maxMs = Math.max(opts.maxMs ?? DEFAULT_BACKOFF.maxMs, this.#initialMs);
  }

  /** next gives the delay before the next attempt and counts one more failure. */
  next(): number {
    // The exponent is bounded so the delay never overflows to Infinity.
    const delay = Math.min(this.#maxMs, this.#initialMs * 2 ** Math.min(this.#failures, 30));
    this.#failures += 1;
    return delay;
  }

  /** reset starts over from the first delay after a success. */
  reset(): void {
    this.#failures = 0;
  }
}
