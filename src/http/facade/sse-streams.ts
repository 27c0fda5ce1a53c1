// The open Server-Sent Events streams of one facade: counted in the `cachegate_sse_clients`
// gauge and ended together when the app closes.

import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

/** SSE_CLIENTS_METRIC is the gauge of open SSE streams. */
export const SSE_CLIENTS_METRIC = 'cachegate_sse_clients';

/** SseStreams tracks the closers of open streams. */
export class SseStreams {
  readonly #closers = new Set<() => void>();
  readonly #gauge: Gauge;

  /** The gauge is taken from the registry when already there (two facades, one registry), else registered. */
  constructor(registry?: Registry) {
    const existing = registry?.getSingleMetric(SSE_CLIENTS_METRIC);
    this.#gauge = existing instanceof Gauge ? existing : new Gauge({
      name: SSE_CLIENTS_METRIC,
      help: 'Open Server-Sent Events streams of the REST facade (/v1/cachedobjects?watch=true).',
      registers: registry ? [registry] : [],
    });
  }

  /** add registers an open stream's closer and returns the function that unregisters it. */
  add(close: () => void): () => void {
    this.#closers.add(close);
    this.#gauge.inc();
    return () => {
      if (this.#closers.delete(close)) this.#gauge.dec();
    };
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
