// Group commit: many writers, one transaction. Each commit() is queued, and a flush scheduled with
// setImmediate applies everything queued so far together, so the cost of a durable COMMIT (an
// fsync) is shared by every write that arrived in the same turn of the event loop. node:sqlite is
// synchronous and a flush blocks the event loop while it runs, so a batch is bounded by count and
// bytes; what is left over waits for the next flush, after other callbacks have had their turn.

/** BatchLimits bound one flush; a single item larger than maxBytes still goes, alone. */
export interface BatchLimits {
  readonly maxItems: number;
  readonly maxBytes: number;
}

/** BatchStats describe one flush, for metrics and benches. */
export interface BatchStats {
  readonly items: number;
  readonly bytes: number;
  readonly durationMs: number;
}

/**
 * ApplyBatch applies items together and returns one result per item, in order; when it throws,
 * every item of the batch is rejected with what it threw.
 */
export type ApplyBatch<Item, Result> = (items: readonly Item[]) => Result[];

interface Pending<Item, Result> {
  readonly item: Item;
  readonly bytes: number;
  readonly resolve: (result: Result) => void;
  readonly reject: (err: unknown) => void;
}

/** GroupCommit queues items and applies them in bounded batches, one batch per event-loop turn. */
export class GroupCommit<Item, Result> {
  private queue: Pending<Item, Result>[] = [];
  private scheduled = false;
  private drainWaiters: (() => void)[] = [];
  /** holds: how many holders keep batches from being applied now (see hold). */
  private holds = 0;

  constructor(
    private readonly apply: ApplyBatch<Item, Result>,
    private readonly limits: BatchLimits,
    private readonly onBatch?: (stats: BatchStats) => void,
  ) {}

  /** submit queues an item and resolves with its result once its batch has been applied. */
  submit(item: Item, bytes: number): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, bytes, resolve, reject });
      this.schedule();
    });
  }

  /**
   * hold keeps every batch waiting until the returned release is called (each holder releases
   * once): a reader that yields to the event loop sees no commit land meanwhile.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.queue.length > 0) this.schedule();
    };
  }

  /** drained resolves once nothing is queued any more. */
  drained(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    // The last release schedules the flush again.
    if (this.holds > 0) return;
    const batch = this.takeBatch();
    if (batch.length > 0) this.run(batch);
    if (this.queue.length > 0) {
      this.schedule();
      return;
    }
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private takeBatch(): Pending<Item, Result>[] {
    let count = 0;
    let bytes = 0;
    while (count < this.queue.length && count < this.limits.maxItems) {
      const next = this.queue[count]!;
      if (count > 0 && bytes + next.bytes > this.limits.maxBytes) break;
      bytes += next.bytes;
      count++;
    }
    return this.queue.splice(0, count);
  }

  private run(batch: readonly Pending<Item, Result>[]): void {
    const started = performance.now();
    let results: Result[];
    try {
      results = this.apply(batch.map((pending) => pending.item));
    } catch (err) {
      for (const pending of batch) pending.reject(err);
      return;
    }
    batch.forEach((pending, i) => pending.resolve(results[i]!));
    const bytes = batch.reduce((sum, pending) => sum + pending.bytes, 0);
    this.onBatch?.({ items: batch.length, bytes, durationMs: performance.now() - started });
  }
}
