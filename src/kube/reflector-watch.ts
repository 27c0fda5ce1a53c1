// The watch half of a reflector's list-then-watch: each watch resumes from the last
// resourceVersion seen (of the list, an event or a BOOKMARK) and its events go into the store one
// by one. reflector.ts decides when to list and when to watch again.

import type { GroupVersionResource } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { Backoff } from './backoff.js';
import type { InformerCache } from './informer-cache.js';
import type { ReflectorHealth } from './reflector-health.js';
import type { SourceConnection } from './source-connection.js';
import { resourcePath } from './source-connection.js';
import type { SourceIncarnation } from './source-incarnation.js';
import type { WatchStream } from './source-transport.js';
import { runWatch } from './watch-session.js';
import type { WatchOutcome } from './watch-session.js';

/** WATCH_TIMEOUT_RANGE_S: each watch asks the server to end it after 5–10 minutes, as client-go does, so a silently dead stream cannot last forever. */
const WATCH_TIMEOUT_RANGE_S = [300, 600] as const;

/** ReflectorWatchOptions are what a reflector's watches read and change of their reflector. */
export interface ReflectorWatchOptions {
  readonly source: SourceConnection;
  readonly gvr: GroupVersionResource;
  readonly cluster: string | undefined;
  readonly labelSelector: string | undefined;
  /** cache is the reflector's store, which the events change. */
  readonly cache: InformerCache;
  /** incarnation checks each event's version: one older than a version already seen ends the watch. */
  readonly incarnation: SourceIncarnation;
  /** backoff is reset by a watch's first event: only that proves the connection healthy. */
  readonly backoff: Backoff;
  readonly health: ReflectorHealth;
}

/** ReflectorWatch runs a reflector's watches, one at a time, each from the last resourceVersion seen. */
export class ReflectorWatch {
  readonly #opts: ReflectorWatchOptions;
  readonly #cache: InformerCache;
  readonly #incarnation: SourceIncarnation;
  #resourceVersion = '';
  #stopped = false;
  #stream: WatchStream | undefined;

  constructor(opts: ReflectorWatchOptions) {
    this.#opts = opts;
    this.#cache = opts.cache;
    this.#incarnation = opts.incarnation;
  }

  /** resourceVersion is the last resourceVersion seen (of the list, an event or a BOOKMARK): the next watch starts there. */
  get resourceVersion(): string {
    return this.#resourceVersion;
  }

  /** resumeFrom records a fresh list's resourceVersion, so the next watch starts there. */
  resumeFrom(resourceVersion: string): void {
    this.#resourceVersion = resourceVersion;
  }

  /** stop ends the current watch; no event is applied after it. */
  stop(): void {
    this.#stopped = true;
    this.#stream?.abort();
  }

  /** run opens one watch and resolves when it ends with what to do next; a failure rejects. */
  run(): Promise<WatchOutcome> {
    const { source, cluster, gvr, backoff, health } = this.#opts;
    return runWatch({
      transport: source.transport,
      path: resourcePath(source, cluster, gvr),
      query: this.#query(),
      apply: (type, object) => (this.#stopped ? 'closed' : this.#apply(type, object)),
      firstEvent: () => backoff.reset(),
      connected: (stream) => {
        this.#stream = stream;
        if (this.#stopped) return false;
        health.connected();
        return true;
      },
    });
  }

  #query(): Record<string, string> {
    const [min, max] = WATCH_TIMEOUT_RANGE_S;
    const query: Record<string, string> = {
      resourceVersion: this.#resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(min + Math.floor(Math.random() * (max - min))),
    };
    if (this.#opts.labelSelector) query['labelSelector'] = this.#opts.labelSelector;
    return query;
  }

  /** #apply stores one watch event; it returns how the stream must end, if it must. */
  #apply(type: string, object: unknown): WatchOutcome | Error | undefined {
    if (!isPlainObject(object)) return undefined;
    if (type === 'ERROR') {
      if (object['code'] === 410) return 'gone';
      if (object['code'] === 504) return 'too-large';
      const message = typeof object['message'] === 'string' ? object['message'] : JSON.stringify(object);
      return new Error(`watch error event: ${message}`);
    }
    if (!isPlainObject(object['metadata'])) return undefined;
    const obj = object as KubeObject;
    const version = obj.metadata.resourceVersion;
    if (typeof version === 'string' && !this.#incarnation.seen(version)) return 'rewound';
    if (type === 'ADDED' || type === 'MODIFIED') this.#cache.upsert(obj);
    else if (type === 'DELETED') this.#cache.remove(obj);
    else if (type !== 'BOOKMARK') return undefined;
    const rv = obj.metadata.resourceVersion;
    if (typeof rv === 'string' && rv !== '') this.#resourceVersion = rv;
    return undefined;
  }
}
