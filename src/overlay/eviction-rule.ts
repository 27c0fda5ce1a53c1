// When does the cache's copy of an object make a live overlay entry redundant? The seed's rule:
// the UIDs match (an empty UID on either side counts as a match) and the copy's resourceVersion
// has reached the entry's. Resource versions are compared as numbers when both are decimal
// (cachegate and Kubernetes issue counters) and as strings otherwise, as the seed does.

import { compareResourceVersions, isNumericResourceVersion } from '../apimachinery/resource-version.js';
import { compareStrings } from '../apimachinery/compare-strings.js';

/** Version is the identity of one version of an object: its UID and resourceVersion ('' if unknown). */
export interface Version {
  readonly uid: string;
  readonly resourceVersion: string;
}

/**
 * shouldEvict tells whether the cache, holding `observed`, has caught up with an entry.
 * The seed's table for an entry at "10": observed 9 keeps, 10 and 11 evict, another UID keeps.
 * An entry without a resourceVersion cannot be ordered, so any matching copy evicts it; an
 * observed copy without one proves nothing and keeps the entry.
 */
export function shouldEvict(entry: Version, observed: Version): boolean {
  if (!sameUid(entry.uid, observed.uid)) return false;
  if (entry.resourceVersion === '') return true;
  if (observed.resourceVersion === '') return false;
  return compareVersions(observed.resourceVersion, entry.resourceVersion) >= 0;
}

/**
 * isNewer tells whether version `a` is strictly newer than `b` by resourceVersion alone. UIDs
 * are not looked at: resourceVersions are ordered across incarnations of a name within one
 * cluster. An empty `a` is never newer; a non-empty `a` is newer than an empty `b`.
 */
export function isNewer(a: Version, b: Version): boolean {
  if (a.resourceVersion === '') return false;
  if (b.resourceVersion === '') return true;
  return compareVersions(a.resourceVersion, b.resourceVersion) > 0;
}

/** sameUid is the seed's UID match: equal, or empty on either side. */
export function sameUid(a: string, b: string): boolean {
  return a === '' || b === '' || a === b;
}

/** compareVersions orders two non-empty resourceVersions: numerically when both are decimal. */
export function compareVersions(a: string, b: string): number {
  if (isNumericResourceVersion(a) && isNumericResourceVersion(b)) return compareResourceVersions(a, b);
  return compareStrings(a, b);
}
