// A backoff pause that stop() can cut short, so a stopped reflector does not linger in a timer.

/** InterruptiblePause sleeps until its time passes or interrupt() is called; after stop() it no longer sleeps. */
export class InterruptiblePause {
  #wake: (() => void) | undefined;
  #stopped = false;

  /** sleep resolves after ms, or at once when interrupted or stopped. */
  sleep(ms: number): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }

  /** stop ends the current pause and every later one at once. */
  stop(): void {
    this.#stopped = true;
    this.#wake?.();
  }
}
