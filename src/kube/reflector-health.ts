// What a reflector tells readiness and reports about itself: why it is not connected right now
// (or nothing while it is), since when it has been failing, and how often it had to start over.
// Restarts are also counted in `cachegate_informer_restarts_total{source,resource}`.

import type { Logger } from 'pino';
import type { InformerRestarts, InformerRestartSeries } from './informer-metrics.js';

/** ReflectorHealthOptions name the reflector in messages and metrics. */
export interface ReflectorHealthOptions {
  readonly source: string;
  /** resource is the schema string of the reflected resource, e.g. v1.configmaps.core. */
  readonly resource: string;
  readonly log: Logger;
  readonly restarts?: InformerRestarts;
}

/** ReflectorHealth is the connection state of one reflector. */
export class ReflectorHealth {
  readonly #log: Logger;
  readonly #describe: string;
  /** #series is this reflector's hold on its restart counter series (the last holder removes it). */
  readonly #series: InformerRestartSeries | undefined;
  #lastError: string | undefined = 'not started';
  #failingSince: string | undefined;
  #restarts = 0;

  constructor(opts: ReflectorHealthOptions) {
    this.#log = opts.log;
    this.#describe = `informer for ${opts.resource} in source ${opts.source}`;
    this.#series = opts.restarts?.hold({ source: opts.source, resource: opts.resource });
  }

  /** lastError says why the reflector is not connected right now, or undefined when it is. */
  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** failingSince is when the current run of failures began (ISO time), undefined while connected. */
  get failingSince(): string | undefined {
    return this.#lastError === undefined ? undefined : this.#failingSince;
  }

  /** restarts counts re-lists and re-watches after errors and expired or unknown resourceVersions. */
  get restarts(): number {
    return this.#restarts;
  }

  /** waiting records a state that is not a failure yet (starting, not synced). */
  waiting(reason: string): void {
    this.#lastError = reason;
  }

  /** connected clears the error: a list or a watch succeeded. */
  connected(): void {
    this.#lastError = undefined;
  }

  /** restarted counts a routine start-over (an expired resourceVersion) without calling it a failure. */
  restarted(reason: string): void {
    this.#count();
    this.#log.info({ restarts: this.#restarts }, reason);
  }

  /**
   * behind records that the store is known to be behind the source until the next list succeeds
   * (the source restarted): readiness and reports see it as a failure, never as connected.
   */
  behind(reason: string): void {
    this.#failing(reason);
    this.restarted(reason);
  }

  /** failed records a list or watch failure. */
  failed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.#failing(message);
    this.#count();
    this.#log.warn({ restarts: this.#restarts, err: message }, 'list/watch failed; retrying with backoff');
  }

  /** release lets go of the metric series (the reflector stopped). */
  release(): void {
    this.#series?.release();
  }

  #failing(reason: string): void {
    if (this.#lastError === undefined || this.#failingSince === undefined) this.#failingSince = new Date().toISOString();
    this.#lastError = `${this.#describe}: ${reason}`;
  }

  #count(): void {
    this.#restarts += 1;
    this.#series?.inc();
  }
}
