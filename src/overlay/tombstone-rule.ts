// Tombstones need their own rule. The seed evicts a tombstone like a live entry (a copy at the
// same resourceVersion evicts it), but a tombstone usually carries the resourceVersion of the
// very version that was deleted, so a copy at that version is exactly what it must keep hiding.

import { compareVersions, sameUid } from './eviction-rule.js';
import type { Version } from './eviction-rule.js';

/**
 * tombstoneHides tells whether a tombstone hides a copy of the object from readers. With both
 * resourceVersions known it hides every copy not newer than itself, whatever its UID (an older
 * incarnation is stale too). Without them it can only go by UID: it hides a copy with the same
 * UID, and any copy when its own UID is unknown.
 */
export function tombstoneHides(tombstone: Version, copy: Version): boolean {
  if (tombstone.resourceVersion !== '' && copy.resourceVersion !== '') {
    return compareVersions(copy.resourceVersion, tombstone.resourceVersion) <= 0;
  }
  return sameUid(tombstone.uid, copy.uid);
}

/**
 * tombstoneEvictedBy tells whether an observation ends a tombstone. A copy the tombstone would
 * not hide proves the source has moved past the delete (a recreate with a new UID, or the same
 * object living on because of finalizers), so the tombstone goes. A deleted copy ends it when
 * the UIDs match; `undefined` (deleted, UID unknown) counts as a match.
 */
export function tombstoneEvictedBy(tombstone: Version, observed: Version | undefined, deleted: boolean): boolean {
  if (observed === undefined) return true;
  if (deleted) return sameUid(tombstone.uid, observed.uid);
  return !tombstoneHides(tombstone, observed);
}
