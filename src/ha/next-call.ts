// One call shared by everyone who asks while it has not started yet. A caller that asks while a
// call is on its way joins the next one, which starts when that one settles: its answer is then
// taken after the caller asked, as a read that must see everything committed before it needs.

/** NextCall runs call at most once at a time, and shares each run among those who asked before it began. */
export class NextCall<T> {
  readonly #call: () => Promise<T>;
  #running: Promise<T> | undefined;
  #queued: Promise<T> | undefined;

  constructor(call: () => Promise<T>) {
    this.#call = call;
  }

  /** next is the answer of a call that starts now, or right after the one running. */
  next(): Promise<T> {
    if (this.#queued !== undefined) return this.#queued;
    const running = this.#running;
    if (running === undefined) return this.#start();
    this.#queued = running.then(settled, settled).then(() => {
      this.#queued = undefined;
      return this.#start();
    });
    return this.#queued;
  }

  #start(): Promise<T> {
    const running = this.#call();
    this.#running = running;
    const clear = (): void => {
      if (this.#running === running) this.#running = undefined;
    };
    running.then(clear, clear);
    return running;
  }
}

function settled(): void {}
