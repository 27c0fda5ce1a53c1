// How far a feed of this folder has applied etcd's revisions, and the reads waiting for more. Few
// reads wait at once (they share their revision request), so a plain list is enough here.

import type { FeedProgress } from './consistent-reads.js';

/** RevisionWaiters is told what its feed applied and wakes the waits that were due. */
export class RevisionWaiters implements FeedProgress {
  #applied = 0;
  #waiting: Array<{ readonly revision: number; readonly wake: () => void }> = [];

  revision(): number {
    return this.#applied;
  }

  reach(revision: number, timeoutMs: number): Promise<void> {
    if (revision <= this.#applied) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { revision, wake: () => { clearTimeout(timer); resolve(); } };
      const timer = setTimeout(() => {
        this.#waiting = this.#waiting.filter((other) => other !== waiter);
        resolve();
      }, timeoutMs);
      this.#waiting.push(waiter);
    });
  }

  /** applied says the feed holds everything up to revision. */
  applied(revision: number): void {
    if (revision <= this.#applied) return;
    this.#applied = revision;
    const due = this.#waiting.filter((waiter) => waiter.revision <= revision);
    if (due.length === 0) return;
    this.#waiting = this.#waiting.filter((waiter) => waiter.revision > revision);
    for (const waiter of due) waiter.wake();
  }
}
