// Work that finishes in microtasks (reconciles over in-memory stores, applying a long list) never
// lets the event loop reach its I/O phase on its own. Each worker yielding after its own 10 ms is not enough: when they
// resume, each from its own setImmediate, Node drains the microtasks after every immediate, so
// 256 workers took 256 × 10 ms before the loop polled sockets again (2.6 s stalls at 300k
// objects, 7.5 s at 1M). LoopTurns is one budget per turn of the loop, shared by the workers:
// once it is spent, every worker waits for the same next turn, which comes after the loop's I/O.

/** TURN_BUDGET_MS is how long work may run back to back before the event loop gets a turn. */
export const TURN_BUDGET_MS = 10;

/** LoopTurns paces work that shares one event loop: `if (turns.spent()) await turns.nextTurn();` between steps. */
export class LoopTurns {
  private turnStarted = performance.now();
  private next: Promise<void> | undefined;

  constructor(private readonly budgetMs = TURN_BUDGET_MS) {}

  /** spent tells whether this turn's budget is used up. */
  spent(): boolean {
    return performance.now() - this.turnStarted >= this.budgetMs;
  }

  /** nextTurn resolves in the event loop's next check phase, after its I/O; callers waiting together share it. */
  nextTurn(): Promise<void> {
    this.next ??= new Promise((resolve) => {
      setImmediate(() => {
        this.next = undefined;
        this.turnStarted = performance.now();
        resolve();
      });
    });
    return this.next;
  }
}
