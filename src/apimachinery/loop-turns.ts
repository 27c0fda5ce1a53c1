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
// 400-700 ms. So a turn also starts at most TURN_ITEMS items (see full() and take()).

/** TURN_BUDGET_MS is how long work may run back to back before the event loop gets a turn. */
export const TURN_BUDGET_MS = 10;

/** TURN_ITEMS is how many items (reconciles) a turn may start. */
export const TURN_ITEMS = 32;

/** LoopTurns paces work that shares one event loop: `if (turns.spent()) await turns.nextTurn();` between steps. */
export class LoopTurns {
  private turnStarted = performance.now();
  private taken = 0;
  private next: Promise<void> | undefined;

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
    return this.taken >= this.items;
  }

  /** take counts one item started in this turn. */
  take(): void {
    this.taken++;
  }

  /** nextTurn resolves in the event loop's next check phase, after its I/O; callers waiting together share it. */
  nextTurn(): Promise<void> {
    this.next ??= new Promise((resolve) => {
      setImmediate(() => {
        this.next = undefined;
        this.turnStarted = performance.now();
        this.taken = 0;
        resolve();
      });
    });
    return this.next;
  }
}
