// The overlay's moving parts, wired by the composition root: the Overlay itself (config `cache`),
// the feed that evicts its entries as the cache catches up (a watch on every CachedObject), the
// sweep timer for TTLs (its metrics read the Overlay at scrape time). With `cache.enabled` false
// none of this exists.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { ORIGINAL_RESOURCE_VERSION_ANNOTATION, originalUidOf } from '../cachedobjects/cached-object-annotations.js';
import { cachedObjectOrigin } from '../cachedobjects/cached-object-origin.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../cachedobjects/cached-object-resource.js';
import { Overlay } from '../overlay/overlay.js';
import type { EvictionCause, ObservedCopy } from '../overlay/overlay.js';
import { overlayKeyString } from '../overlay/overlay-key.js';
import type { OverlayKey } from '../overlay/overlay-key.js';
import type { ResourceStore, Watch } from '../store/store.js';
import { WrittenScopes } from '../write/written-scopes.js';

/** RECENT_DELETION_MS is how long a removed copy is remembered for a delete recorded after its own event. */
const RECENT_DELETION_MS = 30_000;

/** OverlayRuntimeOptions configure the overlay of one app. */
export interface OverlayRuntimeOptions {
  readonly cache: ResourceStore;
  readonly ttlMs: number;
  readonly now?: () => number;
  /** onEvict hears each entry that leaves the overlay (see OverlayOptions). */
  readonly onEvict?: (key: OverlayKey, cause: EvictionCause) => void;
}

/** OverlayRuntime is the overlay of one app with its feed from the cache. */
export class OverlayRuntime {
  readonly overlay: Overlay;
  /** scopes are where writes were recorded (this process's, and other replicas' through the shared overlay). */
  readonly scopes = new WrittenScopes();
  readonly #cache: ResourceStore;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #recentDeletions = new Map<string, { readonly observed: ObservedCopy; readonly at: number }>();
  #watch: Watch | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(opts: OverlayRuntimeOptions) {
    this.#cache = opts.cache;
    this.#ttlMs = opts.ttlMs;
    this.#now = opts.now ?? Date.now;
    this.overlay = new Overlay({ now: this.#now, ttlMs: opts.ttlMs, ...(opts.onEvict ? { onEvict: opts.onEvict } : {}) });
  }

  /** start watches every CachedObject (from the current state on) and starts the sweep timer. */
  async start(): Promise<void> {
    this.#watch = await this.#cache.watch({ group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE }, {}, (event) => {
      if (event.type !== 'BOOKMARK') this.#observe(event.object, event.type === 'DELETED');
    });
    this.#timer = setInterval(() => this.#sweep(), Math.max(this.#ttlMs / 4, 1000));
    this.#timer.unref();
  }

  /** stop ends the watch and the timer. */
  stop(): void {
    this.#watch?.stop();
    this.#watch = undefined;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** recentDeletion is the removal of a key's copy seen in the last RECENT_DELETION_MS, if any. */
  recentDeletion(key: OverlayKey): ObservedCopy | undefined {
    const recent = this.#recentDeletions.get(overlayKeyString(key));
    return recent !== undefined && this.#now() - recent.at < RECENT_DELETION_MS ? recent.observed : undefined;
  }

  #observe(copy: KubeObject, deleted: boolean): void {
    const origin = cachedObjectOrigin(copy);
    if (origin === undefined) return;
    const key: OverlayKey = {
      shard: origin.shard, cluster: origin.cluster, group: origin.gvr.group, resource: origin.gvr.resource, namespace: origin.namespace, name: origin.name,
    };
    const annotations = copy.metadata.annotations ?? {};
    const observed: ObservedCopy = {
      uid: originalUidOf(annotations),
      resourceVersion: annotations[ORIGINAL_RESOURCE_VERSION_ANNOTATION] ?? '',
      ...(deleted ? { deleted: true } : {}),
    };
    this.overlay.observe(key, deleted && observed.uid === '' ? undefined : observed);
    if (deleted) this.#recentDeletions.set(overlayKeyString(key), { observed, at: this.#now() });
  }

  #sweep(): void {
    this.overlay.sweep();
    const cutoff = this.#now() - RECENT_DELETION_MS;
    for (const [key, recent] of this.#recentDeletions) if (recent.at < cutoff) this.#recentDeletions.delete(key);
  }
}
