// The etcd client thread's heap after a burst of work (a sync's commits, a list of every copy) is
// mostly garbage, and V8 does not reliably give it back: the memory reducer that does so for an
// idle main thread sometimes ran in the thread after about 8 s and once not within 30 s, so the
// process kept tens of MB it did not use. IdleCollector does that job in the thread: once the
// thread has been idle for a long while, and its heap has grown since the last collection, it runs
// one collection that returns memory to the system. That collection also drops the thread's
// compiled code (the first work after it ran at half speed in a micro-benchmark, then recovered),
// so it waits for a quiet the size of the memory reducer's own schedule, not for any pause: a busy
// thread is left to V8's own collections, and a trickle of work that does not grow the heap costs
// nothing.

import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** IdleCollectorOptions: how long the thread must be idle, and how much its heap must have grown. */
export interface IdleCollectorOptions {
  readonly idleMs: number;
  /** growthBytes: the committed heap must exceed what it was after the last collection by this much. */
  readonly growthBytes: number;
  /** collect runs a full collection (default: V8's, see exposedGc). */
  readonly collect?: () => void;
  /** heapBytes is the committed heap (default: V8's total_heap_size). */
  readonly heapBytes?: () => number;
  readonly now?: () => number;
}

/** IDLE_COLLECTION: 30 s of quiet, 8 MiB of growth (the thread's live heap is about 15 MB). */
export const IDLE_COLLECTION = { idleMs: 30_000, growthBytes: 8 * 2 ** 20 } as const;

/** IdleCollector collects the thread's garbage once it is idle; touch() on every message in or out. */
export class IdleCollector {
  readonly #idleMs: number;
  readonly #growthBytes: number;
  readonly #collect: () => void;
  readonly #heapBytes: () => number;
  readonly #now: () => number;
  #lastActivity: number;
  #afterCollection: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(opts: IdleCollectorOptions) {
    this.#idleMs = opts.idleMs;
    this.#growthBytes = opts.growthBytes;
    this.#collect = opts.collect ?? exposedGc();
    this.#heapBytes = opts.heapBytes ?? (() => getHeapStatistics().total_heap_size);
    this.#now = opts.now ?? (() => performance.now());
    this.#lastActivity = this.#now();
    this.#afterCollection = this.#heapBytes();
  }

  /** start checks twice per idle period; the timer does not keep the thread alive. */
  start(): this {
    this.#timer = setInterval(() => this.check(), Math.max(1, this.#idleMs / 2));
    this.#timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** touch records activity: the collection waits for a quiet idle period after it. */
  touch(): void {
    this.#lastActivity = this.#now();
  }

  /** check collects when the thread has been idle long enough and its heap has grown; it says whether it did. */
  check(): boolean {
    if (this.#now() - this.#lastActivity < this.#idleMs) return false;
    if (this.#heapBytes() - this.#afterCollection < this.#growthBytes) return false;
    this.#collect();
    this.#afterCollection = this.#heapBytes();
    return true;
  }
}

/**
 * exposedGc returns the collection V8 runs under memory pressure, for the calling isolate: a full
 * collection that also shrinks the young generation and returns pooled pages to the system. A plain
 * full collection keeps the pages it frees for reuse: in a thread that had grown by 90 MB it gave
 * back 6 MB of RSS, this one 69 MB. A worker cannot be started with --expose-gc (a V8 flag, which
 * worker execArgv refuses), so the flag is set now and the function taken from a new context,
 * which is the only place it appears: contexts that already exist, the main thread's included, do
 * not gain a `gc` global.
 */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
