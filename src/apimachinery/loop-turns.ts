// Work that finishes in microtasks (reconciles over in-memory stores, applying a long list) never
// lets the event loop reach its I/O phase on its own. Each worker yielding after its own 10 ms is not enough: when they
// resume, each from its own setImmediate, Node drains the microtasks after every immediate, so
// 256 workers took 256 × 10 ms before the loop polled sockets again (2.6 s stalls at 300k
// objects, 7.5 s at 1M). LoopTurns is one budget per turn of the loop, shared by the workers:
// once it is spent, every worker waits for the same next turn, which comes after the loop's I/O.
//
// A time budget alone does not bound a turn when many workers interleave: each runs its item a
// few microtasks at a time, so every item started in the turn finishes before any worker sees the
// budget spent. 256 items cost about 13 ms normally, but while V8 marks a heap of a million
// objects every allocation pays for marking steps, and those 256 items held the loop for
// 400-700 ms. So a turn also starts a bounded number of items (see full() and take()).
//
// That bound is for items that run to their end without the loop turning (reconciles over the
// memory store). An item that waits on I/O (a copy written to etcd) leaves after a few
// microseconds, and holding a burst of those to 32 per turn after a pause made them queue behind
// each other's loop iterations: the replication lag tail on etcd rose from about 25 to 80-200 ms.
// So the bound follows what recent items did: TURN_ITEMS when they finish in the same pass of
// the loop they started in, up to TURN_ITEMS_MAX when they all wait on I/O.

/** TURN_BUDGET_MS is how long work may run back to back before the event loop gets a turn. */
export const TURN_BUDGET_MS = 10;

/** TURN_ITEMS is how many items (reconciles) a turn may start when they finish without the loop turning. */
export const TURN_ITEMS = 32;

/** TURN_ITEMS_MAX bounds the items a turn may start when they wait on I/O. */
export const TURN_ITEMS_MAX = 1024;

/** SHARE_WEIGHT is the weight of the latest item in the share of items that ended in their own pass (about the last 32 items count). */
const SHARE_WEIGHT = 1 / 32;

/** LoopTurns paces work that shares one event loop: `if (turns.spent()) await turns.nextTurn();` between steps. */
export class LoopTurns {
  private turnStarted = performance.now();
  private taken = 0;
  private next: Promise<void> | undefined;
  /**
   * pass numbers the passes of the event loop in which items start: it moves on once the
   * microtasks of the macrotask that started an item are drained (see take() and nextTurn()).
   */
  private pass = 0;
  private inTurn = false;
  private passEndQueued = false;
  /** sameShare is the recent share of items that finished in the pass they started in. */
  private sameShare = 1;
  /** batches are the workers holding an item that the turns were full for, a turn's worth each, first come first let in (takeNext). */
  private readonly batches: Batch[] = [];

  constructor(
    private readonly budgetMs = TURN_BUDGET_MS,
    private readonly items = TURN_ITEMS,
  ) {}

  /** spent tells whether this turn's budget is used up: its time, or the items it may start. */
  spent(): boolean {
    return this.full() || performance.now() - this.turnStarted >= this.budgetMs;
  }

  /**
   * full tells whether this turn has started as many items as it may. Workers ask it before they
   * start an item and spent() after it: a worker that sat idle would find the turn's time long
   * gone and wait a turn for nothing, but the count only grows with work done since the last wait.
   */
  full(): boolean {
    return this.taken >= this.limit();
  }

  /** limit is how many items a turn may start now (see the file comment). */
  limit(): number {
    const share = Math.max(this.sameShare, this.items / TURN_ITEMS_MAX);
    return Math.min(TURN_ITEMS_MAX, Math.round(this.items / share));
  }

  /** take counts one item started; pass what it returns to finished() when the item ends. */
  take(): number {
    this.taken++;
    // Outside a turn the item starts in an I/O callback (its pass ends in this iteration's check
    // phase) or in another immediate (it ends in the next iteration's: an item done by then still
    // counts as same-pass, which only keeps the bound lower).
    if (!this.inTurn && !this.passEndQueued) {
      this.passEndQueued = true;
      setImmediate(() => this.endPass());
    }
    return this.pass;
  }

  /**
   * tryTake is take() when this turn may start an item and no worker waits before this one;
   * undefined otherwise, and the worker then waits its place with takeNext().
   */
  tryTake(): number | undefined {
    return this.batches.length > 0 || this.full() ? undefined : this.take();
  }

  /**
   * takeNext resolves with take()'s token once a turn lets this item start. Each turn lets in as
   * many waiting workers as it may start items, in the order they came: when all of a few hundred
   * workers shared the wake-up of nextTurn(), each turn woke them all to start 32 items, and the
   * rest went back to waiting (about 2 KB of garbage per item of a sync).
   */
  takeNext(): Promise<number> {
    // Workers let in by one turn share one promise: a waiting worker costs its await, not a promise of its own.
    let batch = this.batches[this.batches.length - 1];
    if (batch === undefined || batch.size >= this.limit()) {
      batch = newBatch();
      this.batches.push(batch);
      void this.nextTurn();
    }
    batch.size++;
    return batch.started;
  }

  /** finished tells that the item whose take() returned token has ended. */
  finished(token: number): void {
    const same = token === this.pass ? 1 : 0;
    this.sameShare += (same - this.sameShare) * SHARE_WEIGHT;
  }

  /** nextTurn resolves in the event loop's next check phase, after its I/O; callers waiting together share it. */
  nextTurn(): Promise<void> {
    this.next ??= new Promise((resolve) => {
      setImmediate(() => {
        this.next = undefined;
        this.turnStarted = performance.now();
        this.taken = 0;
        this.inTurn = true;
        this.letIn();
        resolve();
      });
      // Queued right behind the turn's immediate: it runs once the turn's microtasks are drained.
      setImmediate(() => {
        this.inTurn = false;
        this.endPass();
      });
    });
    return this.next;
  }

  /** letIn starts the first batch of waiting workers in this turn, counted as taken; later batches wait for the next turns. */
  private letIn(): void {
    const batch = this.batches.shift();
    if (batch !== undefined) {
      this.taken += batch.size;
      batch.start(this.pass);
    }
    if (this.batches.length > 0) void this.nextTurn();
  }

  private endPass(): void {
    this.passEndQueued = false;
    this.pass++;
  }
}

/** Batch is the workers one turn lets in: started resolves with their token (see take()). */
interface Batch {
  readonly started: Promise<number>;
  readonly start: (token: number) => void;
  size: number;
}

function newBatch(): Batch {
  let start: (token: number) => void = () => undefined;
  const started = new Promise<number>((resolve) => {
    start = resolve;
  });
  return { started, start, size: 0 };
}
