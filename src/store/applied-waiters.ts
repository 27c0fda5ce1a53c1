// Waits on what a store's feed has applied: a revision reached, or any change to one key. Waiters
// on revisions are kept in a min-heap by revision, so each applied batch wakes only the due ones.

/** Waiter is a pending wait with its timer. */
interface Waiter {
  readonly resolve: () => void;
  readonly timer: NodeJS.Timeout;
}

/** AppliedWaiters is told by the feed what it applied and wakes the writers waiting for it. */
export class AppliedWaiters {
  private applied = 0;
  private readonly heap: { revision: number; waiter: Waiter }[] = [];
  private readonly byKey = new Map<string, Waiter[]>();

  /** appliedRevision is the revision the feed has applied everything up to. */
  get appliedRevision(): number {
    return this.applied;
  }

  /** revision resolves once the feed has applied revision, or after timeoutMs. */
  revision(revision: number, timeoutMs: number): Promise<void> {
    if (revision <= this.applied) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { resolve, timer: setTimeout(resolve, timeoutMs) };
      this.push(revision, waiter);
    });
  }

  /** keyChange resolves at the next applied change of key, or after timeoutMs. */
  keyChange(key: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const waiter = { resolve, timer: setTimeout(resolve, timeoutMs) };
      const list = this.byKey.get(key);
      if (list === undefined) this.byKey.set(key, [waiter]);
      else list.push(waiter);
    });
  }

  /** changed is called for each applied change of a key. */
  changed(key: string): void {
    const list = this.byKey.get(key);
    if (list === undefined) return;
    this.byKey.delete(key);
    for (const waiter of list) wake(waiter);
  }

  /** appliedThrough is called once the feed has applied everything up to revision. */
  appliedThrough(revision: number): void {
    if (revision <= this.applied) return;
    this.applied = revision;
    while (this.heap.length > 0 && (this.heap[0] as { revision: number }).revision <= revision) {
      wake(this.pop().waiter);
    }
  }

  private push(revision: number, waiter: Waiter): void {
    const heap = this.heap;
    heap.push({ revision, waiter });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as { revision: number }).revision <= revision) break;
      [heap[i], heap[parent]] = [heap[parent] as (typeof heap)[number], heap[i] as (typeof heap)[number]];
      i = parent;
    }
  }

  private pop(): { revision: number; waiter: Waiter } {
    const heap = this.heap;
    const top = heap[0] as (typeof heap)[number];
    const last = heap.pop() as (typeof heap)[number];
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let min = i;
        if (l < heap.length && (heap[l] as typeof top).revision < (heap[min] as typeof top).revision) min = l;
        if (r < heap.length && (heap[r] as typeof top).revision < (heap[min] as typeof top).revision) min = r;
        if (min === i) break;
        [heap[i], heap[min]] = [heap[min] as typeof top, heap[i] as typeof top];
        i = min;
      }
    }
    return top;
  }
}

function wake(waiter: Waiter): void {
  clearTimeout(waiter.timer);
  waiter.resolve();
}
