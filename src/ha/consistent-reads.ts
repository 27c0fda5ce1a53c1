// Consistent reads from a watch cache, the way Kubernetes serves them (KEP-2340): take the
// backend's current revision, wait until every feed the read depends on has applied it, then
// answer from memory. Reads that arrive together share one revision request: a read joins the
// next request to start, never one already on its way, whose revision could predate the read.
// A feed whose prefix had no change since the revision (another prefix moved it) would wait
// forever; after a short grace a barrier write moves every such feed (EtcdBackend.barrier), and
// barriers are shared the same way. Past the bound the read fails with Timeout (504, Retry-After).

import { AppError } from '../errors.js';
import { NextCall } from './next-call.js';

/** FeedProgress is how far one feed has applied the backend's revisions. */
export interface FeedProgress {
  revision(): number;
  /** reach resolves once revision is applied, or after timeoutMs. */
  reach(revision: number, timeoutMs: number): Promise<void>;
}

/** ConsistentReadsOptions are the backend calls a consistent read makes, and its bound. */
export interface ConsistentReadsOptions {
  /** currentRevision reads the backend's revision (a linearizable read). */
  readonly currentRevision: () => Promise<number>;
  /** barrier commits a write every feed will deliver, and resolves with its revision. */
  readonly barrier: () => Promise<number>;
  /** timeoutMs bounds a read's wait, revision request included. */
  readonly timeoutMs: number;
  /** barrierAfterMs is how long feeds may catch up on their own before a barrier is sent. */
  readonly barrierAfterMs?: number;
  readonly now?: () => number;
}

/** FeedsView is consistent reads over some of the backend's feeds (a store's, the overlay's). */
export interface FeedsView {
  /** wait resolves once the feeds have applied the backend's revision as of the call; Timeout past the bound. */
  wait(): Promise<void>;
}

/** BARRIER_AFTER_MS: changes already committed usually arrive within a few ms under load. */
const BARRIER_AFTER_MS = 10;

/**
 * ConsistentReads makes reads wait until feeds hold everything committed before they began. Its
 * views over different feeds share one stream of revision requests and one of barriers.
 */
export class ConsistentReads {
  readonly #opts: ConsistentReadsOptions;
  readonly #revisions: NextCall<number>;
  readonly #barriers: NextCall<number>;
  readonly #now: () => number;

  constructor(opts: ConsistentReadsOptions) {
    this.#opts = opts;
    // The bound goes on each shared request, so reads sharing it share its one timer.
    this.#revisions = new NextCall(() => bounded(opts.currentRevision(), opts.timeoutMs));
    this.#barriers = new NextCall(opts.barrier);
    this.#now = opts.now ?? (() => performance.now());
  }

  /** over is the consistent reads of these feeds. */
  over(feeds: readonly FeedProgress[]): FeedsView {
    return { wait: () => this.#wait(feeds) };
  }

  async #wait(feeds: readonly FeedProgress[]): Promise<void> {
    const deadline = this.#now() + this.#opts.timeoutMs;
    const target = await this.#revisions.next();
    if (reached(feeds, target)) return;
    await reach(feeds, target, Math.min(this.#opts.barrierAfterMs ?? BARRIER_AFTER_MS, this.#left(deadline)));
    while (!reached(feeds, target)) {
      if (this.#left(deadline) === 0) throw this.#timeout(feeds, target);
      await this.#barriers.next();
      await reach(feeds, target, this.#left(deadline));
    }
  }

  #left(deadline: number): number {
    return Math.max(0, deadline - this.#now());
  }

  #timeout(feeds: readonly FeedProgress[], target: number): AppError {
    const behind = Math.min(...feeds.map((feed) => feed.revision()));
    return new AppError(
      'Timeout',
      `this replica's cache has not reached the backend's revision ${target} (it is at ${behind}) within ${this.#opts.timeoutMs} ms; retry later, or read with consistent=false`,
      { retryAfterSeconds: 1 },
    );
  }
}

function reached(feeds: readonly FeedProgress[], target: number): boolean {
  return feeds.every((feed) => feed.revision() >= target);
}

async function reach(feeds: readonly FeedProgress[], target: number, timeoutMs: number): Promise<void> {
  await Promise.all(feeds.map((feed) => (feed.revision() >= target ? undefined : feed.reach(target, timeoutMs))));
}

// A revision request etcd does not answer (no quorum) fails its reads at the bound, not later.
async function bounded(revision: Promise<number>, timeoutMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new AppError(
      'Timeout',
      `etcd did not give its current revision within ${timeoutMs} ms; retry later, or read with consistent=false`,
      { retryAfterSeconds: 1 },
    )), timeoutMs);
  });
  try {
    return await Promise.race([revision, bound]);
  } finally {
    clearTimeout(timer);
  }
}
