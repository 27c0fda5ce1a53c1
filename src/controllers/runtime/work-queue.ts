// A work queue with client-go's contract (util/workqueue): fair (items are handed out in the
// order they were added), stingy (an item is held by at most one worker, and adding it again
// while it waits changes nothing), with delayed and rate-limited adds on top. Items are keys,
// not objects, so a worker always reads the latest state and repeated changes coalesce.

import { ChunkedMap } from '../../apimachinery/chunked-map.js';
import type { QueueMetrics } from './queue-metrics.js';
import { defaultControllerRateLimiter } from './rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';

/** WorkQueueOptions configures a WorkQueue; name labels its metrics. */
export interface WorkQueueOptions {
  readonly name: string;
  readonly rateLimiter?: RateLimiter;
  readonly metrics?: QueueMetrics;
  /** now is a monotonic clock in milliseconds, for delays and durations. */
  readonly now?: () => number;
}

interface Delayed {
  readonly readyAt: number;
  readonly timer: NodeJS.Timeout;
}

// Node fires longer timeouts after 1 ms instead; waiting ~24.8 days is as good as never.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** WorkQueue hands string items to workers fairly, never to two workers at once. */
export class WorkQueue {
  readonly name: string;
  private readonly rateLimiter: RateLimiter;
  private readonly metrics: QueueMetrics | undefined;
  private readonly now: () => number;
  private readonly queue = new Fifo();
  /**
   * dirty holds items that must be processed (again), queued ones and re-adds of processing ones,
   * each with when it was added (for the queue-duration metric). It holds every key of an initial
   * sync (a million or more): a chunked map, so its growth never rehashes it whole (see
   * chunked-map.ts); the Fifo keeps the order.
   */
  private readonly dirty = new ChunkedMap<number>();
  /** processing maps each item a worker holds to when it was handed out. */
  private readonly processing = new Map<string, number>();
  private readonly delayed = new Map<string, Delayed>();
  private readonly getters: ((item: string | undefined) => void)[] = [];
  private readonly drainers: (() => void)[] = [];
  private shuttingDown = false;

  constructor(opts: WorkQueueOptions) {
    this.name = opts.name;
    this.rateLimiter = opts.rateLimiter ?? defaultControllerRateLimiter(opts.now);
    this.metrics = opts.metrics;
    this.now = opts.now ?? (() => performance.now());
  }

  /** add marks item for processing; it is ignored if already pending or after shut down. */
  add(item: string): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.dirty.set(item, this.now());
    this.metrics?.added(this.name);
    // A held item goes back into the queue when its worker calls done, not before.
    if (!this.processing.has(item)) this.enqueue(item);
  }

  /** addAfter adds item once ms have passed; an earlier pending delay for the same item wins. */
  addAfter(item: string, ms: number): void {
    if (this.shuttingDown) return;
    if (!(ms > 0)) {
      this.add(item);
      return;
    }
    const delay = Math.min(ms, MAX_TIMEOUT_MS);
    const readyAt = this.now() + delay;
    const existing = this.delayed.get(item);
    if (existing !== undefined) {
      if (existing.readyAt <= readyAt) return;
      clearTimeout(existing.timer);
    }
    const timer = setTimeout(() => {
      this.delayed.delete(item);
      this.add(item);
    }, delay);
    // A pending retry must not keep the process alive on its own.
    timer.unref();
    this.delayed.set(item, { readyAt, timer });
  }

  /** addRateLimited adds item after the wait its rate limiter decides, counting a retry. */
  addRateLimited(item: string): void {
    if (this.shuttingDown) return;
    this.metrics?.retried(this.name);
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** forget clears item's retry history, so its next failure backs off from the start. */
  forget(item: string): void {
    this.rateLimiter.forget(item);
  }

  /** numRequeues is how often item was rate-limited since it was last forgotten. */
  numRequeues(item: string): number {
    return this.rateLimiter.retries(item);
  }

  /** get resolves with the next item, waiting for one; undefined once the queue is shut down. */
  get(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    const item = this.tryGet();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /**
   * tryGet hands out the next item if one is waiting, without a promise: a worker going through a
   * backlog of a million keys takes each at once. undefined: none waits, or the queue is shut
   * down (get tells which, and waits).
   */
  tryGet(): string | undefined {
    if (this.shuttingDown) return undefined;
    const item = this.queue.shift();
    if (item === undefined) return undefined;
    this.metrics?.depth(this.name, this.queue.length);
    return this.handOut(item);
  }

  /** done releases item; if it was added meanwhile, it is queued again. */
  done(item: string): void {
    const startedAt = this.processing.get(item);
    if (startedAt === undefined) return;
    this.processing.delete(item);
    this.metrics?.worked(this.name, (this.now() - startedAt) / 1000);
    if (this.dirty.has(item) && !this.shuttingDown) this.enqueue(item);
    if (this.processing.size === 0) this.settleDrainers();
  }

  /** len is the number of items waiting to be handed out. */
  len(): number {
    return this.queue.length;
  }

  /** isIdle tells whether no item is waiting, held by a worker, or due for a delayed (retry) add. */
  isIdle(): boolean {
    return this.queue.length === 0 && this.dirty.size === 0 && this.processing.size === 0 && this.delayed.size === 0;
  }

  /**
   * isSettled tells whether every item added so far has been handed to a worker and finished at
   * least once: nothing waits or is held (a retry may still be due later).
   */
  isSettled(): boolean {
    return this.queue.length === 0 && this.dirty.size === 0 && this.processing.size === 0;
  }

  /** isShuttingDown tells whether shutDown or shutDownWithDrain was called. */
  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** shutDown stops accepting adds and handing out items; pending get()s resolve undefined. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    for (const resolve of this.getters.splice(0)) resolve(undefined);
    if (this.processing.size === 0) this.settleDrainers();
  }

  /** shutDownWithDrain shuts down and resolves once every item held by a worker is done. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainers.push(resolve));
  }

  /** enqueue gives item to a waiting get() or, if none waits, appends it to the queue. */
  private enqueue(item: string): void {
    const getter = this.getters.shift();
    if (getter !== undefined) {
      getter(this.handOut(item));
      return;
    }
    this.queue.push(item);
    this.metrics?.depth(this.name, this.queue.length);
  }

  /** handOut moves item from pending to processing. */
  private handOut(item: string): string {
    const now = this.now();
    const addedAt = this.dirty.get(item);
    this.dirty.delete(item);
    this.processing.set(item, now);
    if (addedAt !== undefined) this.metrics?.queued(this.name, (now - addedAt) / 1000);
    return item;
  }

  private settleDrainers(): void {
    for (const resolve of this.drainers.splice(0)) resolve();
  }
}

/** Fifo is an array queue with O(1) amortised shift, for long queues after a full resync. */
class Fifo {
  private items: string[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: string): void {
    this.items.push(item);
  }

  shift(): string | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head++];
    // Compact once the consumed prefix dominates, so memory stays proportional to the queue.
    if (this.head === this.items.length || (this.head > 1024 && this.head * 2 > this.items.length)) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
