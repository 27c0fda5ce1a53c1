// Read-your-writes for the facade. Writes that reached the source are recorded here; reads of
// the cache pass through resolve/mergeList, which hand back a recorded write only while it is
// newer than the cache's copy. Entries go when the cache catches up (observe, or lazily on read)
// or when their TTL passes (sweep, or on read). One Overlay serves every shard and logical
// cluster: keys carry both, so the composition root wires a single instance and the metrics
// read a single size. Pure state: the clock is injected and nothing here schedules work.

import { deepFreeze } from '../apimachinery/object-meta.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { isNewer, sameUid } from './eviction-rule.js';
import type { Version } from './eviction-rule.js';
import { EntryTable } from './entry-table.js';
import type { OverlaySize } from './entry-table.js';
import { compareByName, evictedBy, judge, versionOf } from './overlay-entry.js';
import type { ObservedCopy, OverlayEntry, Verdict } from './overlay-entry.js';
import { inNamespace, keyOfObject } from './overlay-key.js';
import type { OverlayKey, OverlayScope } from './overlay-key.js';
import { DEFAULT_TTL_MS } from './overlay-options.js';
import type { EvictionCause, LastKnown, OverlayOptions, Resolved } from './overlay-options.js';

export type { OverlaySize } from './entry-table.js';
export type { ObservedCopy, OverlayEntry } from './overlay-entry.js';
export type { EvictionCause, LastKnown, OverlayOptions, Resolved } from './overlay-options.js';

/** Overlay holds recorded writes and merges them into reads of the cache. */
export class Overlay {
  readonly #table = new EntryTable();
  readonly #evictions: Record<EvictionCause, number> = { cache: 0, ttl: 0 };
  readonly #now: () => number;
  readonly #ttlMs: number;
  readonly #onChange: ((size: OverlaySize) => void) | undefined;
  readonly #onEvict: ((key: OverlayKey, cause: EvictionCause) => void) | undefined;

  constructor(options: OverlayOptions) {
    this.#now = options.now;
    this.#ttlMs = options.ttlMs > 0 ? options.ttlMs : DEFAULT_TTL_MS;
    this.#onChange = options.onChange;
    this.#onEvict = options.onEvict;
  }

  /**
   * recordUpsert records the server's object after a successful create, update, patch or status
   * write, replacing any entry (tombstones too) with a fresh TTL. Pass the cache's copy as read
   * right after the write: if the cache already holds the written version (its event beat the
   * response), the entry is dropped at once instead of lingering until the TTL. An entry of the
   * same UID that is already newer is kept, so a late recording can never move reads backwards.
   */
  recordUpsert(key: OverlayKey, serverObject: KubeObject, cacheCopy?: KubeObject): void {
    this.#changing(() => {
      const version = versionOf(serverObject);
      const previous = this.#current(key);
      if (previous !== undefined && sameUid(previous.uid, version.uid) && isNewer(previous, version)) return;
      this.#settle(this.#entry(key, frozen(serverObject), version, false), cacheCopy);
    });
  }

  /**
   * recordDelete records a successful delete as a tombstone carrying the deleted version. When
   * `lastKnown` has no UID or resourceVersion, or is older than a recorded write of the same
   * UID, the recorded write's version is used, so the tombstone hides every version we wrote.
   * A delete whose response still holds the object (deletionTimestamp set, finalizers pending)
   * did not remove it: record that response with recordUpsert instead (see survivesDelete).
   */
  recordDelete(key: OverlayKey, lastKnown: LastKnown, cacheCopy?: KubeObject): void {
    this.#changing(() => {
      const isObject = 'metadata' in lastKnown;
      const given = isObject ? versionOf(lastKnown) : { uid: lastKnown.uid ?? '', resourceVersion: lastKnown.resourceVersion ?? '' };
      const previous = this.#current(key);
      const useRecorded = previous !== undefined && sameUid(previous.uid, given.uid) && isNewer(previous, given);
      const version = useRecorded ? { uid: given.uid || previous.uid, resourceVersion: previous.resourceVersion } : given;
      const object = isObject ? frozen(lastKnown) : previous?.object;
      this.#settle(this.#entry(key, object, version, true), cacheCopy);
    });
  }

  /**
   * recordDeleteAllOf records a successful delete-collection. Every object of the scope as a
   * reader sees it now (cache copies given by the caller, merged with recorded writes) that
   * `matches` becomes a tombstone. Unlike the seed, objects known only to the cache are hidden
   * too; pass the cache objects of the scope that match the delete's selectors. It returns the
   * objects it tombstoned.
   */
  recordDeleteAllOf(scope: OverlayScope, matches: (object: KubeObject) => boolean, cacheObjects: Iterable<KubeObject>): KubeObject[] {
    const inScope = [...cacheObjects].filter((object) => inNamespace(scope, object.metadata.namespace ?? ''));
    const tombstoned: KubeObject[] = [];
    this.#changing(() => {
      for (const object of this.#merge(scope, inScope, () => true, undefined)) {
        if (!matches(object)) continue;
        this.#table.set(this.#entry(keyOfObject(scope, object), object, versionOf(object), true));
        tombstoned.push(object);
      }
    });
    return tombstoned;
  }

  /**
   * observe feeds one cache event: the copy's original UID and resourceVersion, with `deleted`
   * for a removed copy, or `undefined` for a removal whose UID is unknown. It evicts the entry
   * the copy has caught up with (eviction-rule.ts, tombstone-rule.ts).
   */
  observe(key: OverlayKey, observed: ObservedCopy | undefined): void {
    this.#changing(() => {
      const entry = this.#current(key);
      if (entry !== undefined && evictedBy(entry, observed)) this.#evict(entry.key, 'cache');
    });
  }

  /** resolve answers a read of one object from the cache's copy and the overlay, newer wins. */
  resolve(key: OverlayKey, cacheCopy: KubeObject | undefined): Resolved {
    let resolved: Resolved = { object: cacheCopy, source: 'cache' };
    this.#changing(() => {
      const entry = this.#table.get(key);
      if (entry === undefined || this.#verdict(entry, cacheCopy) !== 'overlay') return;
      resolved = { object: entry.deleted ? undefined : entry.object, source: 'overlay' };
    });
    return resolved;
  }

  /**
   * mergeList merges the overlay into one list of the cache. In cache order, an item with a
   * newer entry is replaced by it (or dropped when the new version no longer `matches`), and a
   * tombstoned item is dropped. Then live entries absent from the items that match are
   * appended, sorted by namespace and name. `cacheLookup`, when given, finds the cache copy of
   * such an entry (the copy may exist but not match), so a stale entry is not appended.
   */
  mergeList(
    scope: OverlayScope,
    cacheItems: readonly KubeObject[],
    matches: (object: KubeObject) => boolean,
    cacheLookup?: (namespace: string, name: string) => KubeObject | undefined,
  ): KubeObject[] {
    let merged: KubeObject[] = [];
    this.#changing(() => {
      merged = this.#merge(scope, cacheItems, matches, cacheLookup);
    });
    return merged;
  }

  /** entriesIn lists the unexpired entries of a scope, sorted by namespace and name. */
  entriesIn(scope: OverlayScope): OverlayEntry[] {
    const entries: OverlayEntry[] = [];
    this.#changing(() => {
      for (const entry of this.#table.inScope(scope)) if (this.#current(entry.key) !== undefined) entries.push(entry);
    });
    return entries.sort((a, b) => compareByName(a.key, b.key));
  }

  /** sweep removes every expired entry and returns how many went; the caller runs it on a timer. */
  sweep(): number {
    let removed = 0;
    this.#changing(() => {
      for (const entry of this.#table.all()) if (this.#current(entry.key) === undefined) removed++;
    });
    return removed;
  }

  /** size counts live entries and tombstones. */
  size(): OverlaySize {
    return this.#table.size();
  }

  /** evictions counts entries removed so far, by cause (monotonic, for a metrics counter). */
  evictions(): Readonly<Record<EvictionCause, number>> {
    return { ...this.#evictions };
  }

  #merge(
    scope: OverlayScope,
    cacheItems: readonly KubeObject[],
    matches: (object: KubeObject) => boolean,
    cacheLookup: ((namespace: string, name: string) => KubeObject | undefined) | undefined,
  ): KubeObject[] {
    const lookup = this.#table.lookupIn(scope);
    if (lookup === undefined) return cacheItems.slice();
    const merged: KubeObject[] = [];
    const seen = new Set<OverlayEntry>();
    for (const item of cacheItems) {
      const entry = lookup(item.metadata.namespace ?? '', item.metadata.name ?? '');
      if (entry !== undefined) seen.add(entry);
      const object = entry === undefined ? item : this.#pick(entry, item);
      if (object !== undefined && (object === item || matches(object))) merged.push(object);
    }
    merged.push(...this.#overlayOnly(scope, seen, matches, cacheLookup));
    return merged;
  }

  // Which object a reader sees for a cache item that has an entry; undefined hides the item.
  #pick(entry: OverlayEntry, item: KubeObject): KubeObject | undefined {
    if (this.#verdict(entry, item) !== 'overlay') return item;
    return entry.deleted ? undefined : entry.object;
  }

  #overlayOnly(
    scope: OverlayScope,
    seen: ReadonlySet<OverlayEntry>,
    matches: (object: KubeObject) => boolean,
    cacheLookup: ((namespace: string, name: string) => KubeObject | undefined) | undefined,
  ): KubeObject[] {
    const extra: KubeObject[] = [];
    for (const entry of this.#table.inScope(scope)) {
      if (seen.has(entry) || entry.deleted || entry.object === undefined) continue;
      const copy = cacheLookup?.(entry.key.namespace, entry.key.name);
      if (this.#verdict(entry, copy) === 'overlay' && matches(entry.object)) extra.push(entry.object);
    }
    return extra.sort((a, b) => compareByName(a.metadata, b.metadata));
  }

  // Stores an entry, then drops it at once if the cache's copy has already caught up.
  #settle(entry: OverlayEntry, cacheCopy: KubeObject | undefined): void {
    this.#table.set(entry);
    this.#verdict(entry, cacheCopy);
  }

  // Judges an entry against the cache's copy, dropping it when expired or caught up with.
  #verdict(entry: OverlayEntry, copy: KubeObject | undefined): Verdict {
    if (this.#current(entry.key) === undefined) return 'cache';
    const verdict = judge(entry, copy);
    if (verdict === 'evict') this.#evict(entry.key, 'cache');
    return verdict;
  }

  // The entry of a key if it has not expired; an expired one is removed on the spot.
  #current(key: OverlayKey): OverlayEntry | undefined {
    const entry = this.#table.get(key);
    if (entry === undefined || entry.expiresAt > this.#now()) return entry;
    this.#evict(key, 'ttl');
    return undefined;
  }

  #entry(key: OverlayKey, object: KubeObject | undefined, version: Version, deleted: boolean): OverlayEntry {
    return { key, object, deleted, uid: version.uid, resourceVersion: version.resourceVersion, expiresAt: this.#now() + this.#ttlMs };
  }

  #evict(key: OverlayKey, cause: EvictionCause): void {
    if (!this.#table.delete(key)) return;
    this.#evictions[cause]++;
    this.#onEvict?.(key, cause);
  }

  // Runs a mutation and reports the new counts if they changed; reads pay nothing without a listener.
  #changing(mutate: () => void): void {
    if (this.#onChange === undefined) return mutate();
    const before = this.#table.size();
    mutate();
    const after = this.#table.size();
    if (before.live !== after.live || before.tombstones !== after.tombstones) this.#onChange(after);
  }
}

// Stored objects are shared with every reader, so they are frozen; a frozen one is taken as is.
function frozen(object: KubeObject): KubeObject {
  return Object.isFrozen(object) ? object : deepFreeze(structuredClone(object));
}
