// The open Server-Sent Events streams of one facade: counted in the app's `cachegate_sse_clients`
// gauge and ended together when the app closes.

import type { OpenStreamsGauge } from '../../metrics/metrics.js';

/** SseStreams tracks the closers of open streams. */
export class SseStreams {
  readonly #closers = new Set<() => void>();
  readonly #gauge: OpenStreamsGauge | undefined;

  /** gauge counts the open streams (a facade without one counts nothing). */
  constructor(gauge?: OpenStreamsGauge) {
    this.#gauge = gauge;
  }

  /** add registers an open stream's closer and returns the function that unregisters it. */
  add(close: () => void): () => void {
    this.#closers.add(close);
    this.#gauge?.inc();
    return () => {
      if (this.#closers.delete(close)) this.#gauge?.dec();
    };
  }

  /** delivered counts one event written to a stream (when the gauge counts events). */
  delivered(): void {
    this.#gauge?.delivered?.();
  }

  /** closeAll ends every open stream. */
  closeAll(): void {
    for (const close of [...this.#closers]) close();
  }

  /** size is the number of open streams. */
  get size(): number {
    return this.#closers.size;
  }
}
