// One overlay entry and the two questions asked of it: which of entry and cache copy does a
// reader get, and does a cache event make the entry redundant. The rules themselves live in
// eviction-rule.ts (live entries) and tombstone-rule.ts (deletes).

import type { KubeObject } from '../apimachinery/object-meta.js';
import { isNewer, shouldEvict } from './eviction-rule.js';
import type { Version } from './eviction-rule.js';
import type { OverlayKey } from './overlay-key.js';
import { tombstoneEvictedBy, tombstoneHides } from './tombstone-rule.js';

/** OverlayEntry is a recorded write: a live object, or a tombstone when `deleted`. */
export interface OverlayEntry extends Version {
  readonly key: OverlayKey;
  /** object is the server's object (frozen); a tombstone keeps it when known, for matching. */
  readonly object: KubeObject | undefined;
  readonly deleted: boolean;
  /** expiresAt is the clock reading at which the entry stops counting (TTL). */
  readonly expiresAt: number;
}

/** ObservedCopy is what the cache reported for a key; `deleted` marks the last state of a removed copy. */
export interface ObservedCopy extends Version {
  readonly deleted?: boolean;
}

/** Verdict says whom a reader believes: the overlay, the cache, or the cache with the entry dropped. */
export type Verdict = 'overlay' | 'cache' | 'evict';

/** versionOf reads the UID and resourceVersion of an object ('' when absent). */
export function versionOf(object: KubeObject): Version {
  return { uid: object.metadata.uid ?? '', resourceVersion: object.metadata.resourceVersion ?? '' };
}

/**
 * judge compares an entry with the cache's current copy of the same key. A live entry wins only
 * while it is strictly newer; once the cache has caught up (same UID, resourceVersion reached)
 * the entry is dropped. A live entry of another UID that is not newer loses but stays, as the
 * seed's table keeps it. A tombstone wins while it hides the copy and is dropped when it no
 * longer can; with no copy in the cache there is nothing to hide, and it stays for a late copy.
 */
export function judge(entry: OverlayEntry, copy: KubeObject | undefined): Verdict {
  if (copy === undefined) return entry.deleted ? 'cache' : 'overlay';
  const version = versionOf(copy);
  if (entry.deleted) return tombstoneHides(entry, version) ? 'overlay' : 'evict';
  if (shouldEvict(entry, version)) return 'evict';
  return isNewer(entry, version) ? 'overlay' : 'cache';
}

/**
 * evictedBy tells whether a cache event makes an entry redundant. `undefined` means the copy was
 * deleted and its UID is unknown: that ends a tombstone but not a live entry, which may be a
 * recreate the cache has not seen yet.
 */
export function evictedBy(entry: OverlayEntry, observed: ObservedCopy | undefined): boolean {
  if (entry.deleted) return tombstoneEvictedBy(entry, observed, observed === undefined || observed.deleted === true);
  return observed !== undefined && shouldEvict(entry, observed);
}

/** NamespacedName is what compareByName orders: an OverlayKey or an object's metadata. */
export interface NamespacedName {
  readonly namespace?: string;
  readonly name?: string;
}

/** compareByName orders by namespace, then name (code-unit order), for deterministic output. */
export function compareByName(a: NamespacedName, b: NamespacedName): number {
  const left = `${a.namespace ?? ''}\u0000${a.name ?? ''}`;
  const right = `${b.namespace ?? ''}\u0000${b.name ?? ''}`;
  return left < right ? -1 : left > right ? 1 : 0;
}
