// client-node builds a new undici dispatcher (an Agent, with its own connection pool) for every
// request it authenticates, so each request opened a connection of its own that nothing reused:
// during a long sync a cachegate held 1,500 sockets to its source. The first dispatcher is kept
// and used for every request for a while instead, so connections are kept alive and reused; after
// REUSE_MS the next request's dispatcher takes its place (the kubeconfig's TLS material may have
// been rotated meanwhile), and the old one closes once its requests, watches included, have ended.

import type { Dispatcher } from 'undici';

/** REUSE_MS is how long one dispatcher serves every request. */
const REUSE_MS = 60_000;

/** DispatcherReuse hands out one dispatcher for REUSE_MS at a time. */
export class DispatcherReuse {
  #current: Dispatcher | undefined;
  #until = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** use returns the dispatcher to send with, given the one just built for this request. */
  use(fresh: Dispatcher | undefined): Dispatcher | undefined {
    if (fresh === undefined) return this.#current;
    const now = this.now();
    if (this.#current !== undefined && now < this.#until) {
      // Built but never used: it holds no connection, so closing it costs nothing.
      void fresh.close().catch(() => undefined);
      return this.#current;
    }
    const old = this.#current;
    this.#current = fresh;
    this.#until = now + REUSE_MS;
    void old?.close().catch(() => undefined);
    return fresh;
  }
}
