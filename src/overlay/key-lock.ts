// Writes to one object are serialized so that the order in which they commit at the source is
// the order in which they are recorded in the overlay; otherwise a slow response could record
// an older version after a newer one. Other keys run in parallel.

/** KeyedMutex runs async functions one at a time per key, in call order; idle keys hold no memory. */
export class KeyedMutex {
  readonly #slots = new Map<string, { tail: Promise<void>; holders: number }>();

  /** run waits for every earlier call with the same key to settle, then runs fn. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = { tail: Promise.resolve(), holders: 0 };
      this.#slots.set(key, slot);
    }
    const previous = slot.tail;
    let release = (): void => undefined;
    slot.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    slot.holders++;
    try {
      await previous;
      return await fn();
    } finally {
      release();
      // The last holder out removes the slot, so a key used once does not stay forever.
      if (--slot.holders === 0) this.#slots.delete(key);
    }
  }

  /** activeKeys counts keys with a running or waiting call (for tests and metrics). */
  activeKeys(): number {
    return this.#slots.size;
  }
}
