// One reflector per (source, logical cluster, GVR, label selector), shared by every controller
// that needs it: the first acquire starts it, the last release stops it, so N replication
// controllers over one resource cost one list and one watch.

import type { Logger } from 'pino';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import { schemaOf } from '../apimachinery/gvr.js';
import type { BackoffOptions } from './backoff.js';
import { DynamicClient } from './dynamic-client.js';
import type { InformerRestarts } from './informer-metrics.js';
import { Reflector } from './reflector.js';
import type { SharedValues } from '../apimachinery/shared-values.js';
import type { SourceConnection } from './source-connection.js';

/** SharedInformersOptions are passed on to every reflector created. */
export interface SharedInformersOptions {
  readonly log: Logger;
  /** restarts counts the reflectors' restarts in the app's metrics. */
  readonly restarts?: InformerRestarts;
  readonly backoff?: BackoffOptions;
  /** sharedValues: one table for every source's objects (see DynamicClient); default, one per source. */
  readonly sharedValues?: SharedValues;
}

/** InformerLease is one holder's use of a shared reflector; release() is idempotent. */
export interface InformerLease {
  readonly reflector: Reflector;
  release(): void;
}

interface Shared {
  readonly reflector: Reflector;
  holders: number;
}

/** SharedInformers hands out reference-counted reflectors. */
export class SharedInformers {
  readonly #opts: SharedInformersOptions;
  readonly #shared = new Map<string, Shared>();
  readonly #clients = new Map<SourceConnection, DynamicClient>();

  constructor(opts: SharedInformersOptions) {
    this.#opts = opts;
  }

  /** acquire gives the reflector of (source, cluster, gvr, selector), creating and starting it on first use. */
  acquire(source: SourceConnection, gvr: GroupVersionResource, cluster: string | undefined, labelSelector?: string): InformerLease {
    const key = [source.name, cluster ?? '*', schemaOf(gvr), labelSelector ?? ''].join('|');
    let shared = this.#shared.get(key);
    if (!shared) {
      shared = { reflector: this.#create(source, gvr, cluster, labelSelector), holders: 0 };
      this.#shared.set(key, shared);
      shared.reflector.start();
    }
    shared.holders += 1;
    const held = shared;
    let released = false;
    return {
      reflector: held.reflector,
      release: () => {
        if (released) return;
        released = true;
        held.holders -= 1;
        if (held.holders > 0 || this.#shared.get(key) !== held) return;
        this.#shared.delete(key);
        held.reflector.stop();
      },
    };
  }

  /** all lists the running reflectors (for readiness). */
  all(): Reflector[] {
    return [...this.#shared.values()].map((s) => s.reflector);
  }

  /** stopAll stops every reflector; leases still held become no-ops. */
  stopAll(): void {
    for (const shared of this.#shared.values()) shared.reflector.stop();
    this.#shared.clear();
    this.#clients.clear();
  }

  #create(source: SourceConnection, gvr: GroupVersionResource, cluster: string | undefined, labelSelector: string | undefined): Reflector {
    return new Reflector({
      source,
      client: this.#clientOf(source),
      gvr,
      cluster,
      ...(labelSelector ? { labelSelector } : {}),
      log: this.#opts.log,
      ...(this.#opts.backoff ? { backoff: this.#opts.backoff } : {}),
      ...(this.#opts.restarts ? { restarts: this.#opts.restarts } : {}),
    });
  }

  #clientOf(source: SourceConnection): DynamicClient {
    let client = this.#clients.get(source);
    if (!client) {
      client = new DynamicClient(source, this.#opts.sharedValues);
      this.#clients.set(source, client);
    }
    return client;
  }
}
