// Reads through the overlay (src/overlay/README.md): the cache's answer merged with
// writes made through cachegate that the cache has not replicated yet.
//
// - One object: each cache copy found is resolved against the overlay (the newer of the two is
//   answered, source `overlay` when it is the recorded write; a tombstone hides it). Objects the
//   overlay holds but the cache does not (created, not replicated yet) are found in the scopes
//   writes were recorded in, and answered too.
// - Lists and paging: every page of the cache's list is merged item by item (a newer recorded
//   write replaces its copy in place, or drops it when it no longer matches the filter; a
//   tombstone drops it). Objects only the overlay holds, and recorded writes whose cache copy did
//   not match the filter (or was not in the list's snapshot), are appended to the LAST page,
//   sorted by shard, cluster, namespace and name, so paging through a list stays complete and no
//   object appears twice. `totalCount` is exact for an unpaged list; a paged list reports the
//   cache snapshot's count (`remainingItemCount` likewise), which the appended items may exceed.
// - An overlay answer carries a CachedObject synthesized around the recorded object (the copy
//   the cache will hold once it has replicated it), so callers that need the CachedObject
//   (GraphQL's owners) see one.
// - The overlay is keyed without the version: a write through one version is answered for reads
//   of the same resource; objects only the overlay holds are answered for their own version only.
// - getCachedObject (by the CachedObject's own name) is resolved the same way; watches (and so
//   SSE and subscriptions) deliver the cache's changes only.

import { groupFromName } from '../apimachinery/gvr.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { cachedObjectNameToFind } from '../cachedobjects/cached-object-name.js';
import { cachedObjectOrigin } from '../cachedobjects/cached-object-origin.js';
import { unwrapCachedObject } from '../cachedobjects/wrap-cached-object.js';
import { compareResourceVersions, isNumericResourceVersion } from '../apimachinery/resource-version.js';
import type { Overlay } from '../overlay/overlay.js';
import { overlayKeyString } from '../overlay/overlay-key.js';
import type { OverlayKey, OverlayScope } from '../overlay/overlay-key.js';
import type { CacheCopies } from './cache-copies.js';
import { synthesizeCachedObject } from './cache-copies.js';
import type { CachedObjectFilter, FoundObject, ObjectRef } from './read-model.js';

/** OverlayReads is the overlay as the read model takes it. */
export interface OverlayReads {
  readonly overlay: Overlay;
  /** scopes lists the scopes writes have been recorded in (namespace ignored). */
  readonly scopes: () => Iterable<OverlayScope>;
}

/** overlayFound resolves each cache copy of a lookup against the overlay; hidden ones are left out. */
export function overlayFound(reads: OverlayReads, copies: readonly KubeObject[]): FoundObject[] {
  const found: FoundObject[] = [];
  for (const copy of copies) {
    const origin = cachedObjectOrigin(copy);
    if (origin === undefined) continue;
    const original = unwrapCachedObject(copy);
    const resolved = reads.overlay.resolve(keyOf(origin), original);
    const where = { shard: origin.shard, cluster: origin.cluster };
    if (resolved.source === 'cache') {
      found.push({ object: original, cachedObject: copy, ...where, source: 'cache' });
    } else if (resolved.object !== undefined) {
      const cachedObject = synthesizeCachedObject(resolved.object, { ...where, gvr: origin.gvr }, copy);
      found.push({ object: resolved.object, cachedObject, ...where, source: 'overlay' });
    }
  }
  return found;
}

/** overlayOnlyFound finds the objects of a lookup that only the overlay holds (none of `copies`). */
export function overlayOnlyFound(reads: OverlayReads, ref: ObjectRef, copies: readonly KubeObject[]): FoundObject[] {
  const group = groupFromName(ref.group);
  const inCache = new Set(copies.map((copy) => cachedObjectOrigin(copy)).filter((o) => o !== undefined).map((o) => overlayKeyString(keyOf(o))));
  const found: FoundObject[] = [];
  for (const scope of reads.scopes()) {
    if (scope.group !== group || scope.resource !== ref.resource) continue;
    if ((ref.shard !== undefined && scope.shard !== ref.shard) || (ref.cluster !== undefined && scope.cluster !== ref.cluster)) continue;
    const keys: OverlayKey[] = ref.namespace !== undefined
      ? [{ ...scope, group, namespace: ref.namespace, name: ref.name }]
      : reads.overlay.entriesIn(scope).filter((entry) => entry.key.name === ref.name && !entry.deleted).map((entry) => entry.key);
    for (const key of keys) {
      if (inCache.has(overlayKeyString(key))) continue;
      const resolved = reads.overlay.resolve(key, undefined);
      const object = resolved.object;
      if (resolved.source !== 'overlay' || object === undefined || versionOf(object) !== ref.version) continue;
      const where = { shard: scope.shard, cluster: scope.cluster };
      const cachedObject = synthesizeCachedObject(object, { ...where, gvr: { group, version: ref.version, resource: ref.resource } });
      found.push({ object, cachedObject, ...where, source: 'overlay' });
    }
  }
  return found;
}

/** mergePage merges one page of CachedObjects with the overlay, in place (see the file comment). */
export function mergePage(reads: OverlayReads, items: readonly KubeObject[], matches: (copy: KubeObject) => boolean): KubeObject[] {
  const merged: KubeObject[] = [];
  for (const copy of items) {
    const origin = cachedObjectOrigin(copy);
    if (origin === undefined) {
      merged.push(copy);
      continue;
    }
    const resolved = reads.overlay.resolve(keyOf(origin), unwrapCachedObject(copy));
    if (resolved.source === 'cache') {
      merged.push(copy);
    } else if (resolved.object !== undefined) {
      const synthesized = synthesizeCachedObject(resolved.object, { shard: origin.shard, cluster: origin.cluster, gvr: origin.gvr }, copy);
      if (matches(synthesized)) merged.push(synthesized);
    }
  }
  return merged;
}

/**
 * overlayOnlyItems lists, as CachedObjects, the recorded writes a list of the cache could not
 * contain: objects the cache does not hold, and ones whose copy did not match the filter or came
 * after the list's snapshot (`snapshotVersion`, the cache resourceVersion of the list).
 */
export async function overlayOnlyItems(
  reads: OverlayReads, copies: CacheCopies, filter: CachedObjectFilter, matches: (copy: KubeObject) => boolean, snapshotVersion: string,
): Promise<KubeObject[]> {
  const group = filter.group === undefined ? undefined : groupFromName(filter.group);
  const extra: Array<{ sortKey: string; item: KubeObject }> = [];
  for (const scope of reads.scopes()) {
    if ((filter.shard !== undefined && scope.shard !== filter.shard) || (filter.cluster !== undefined && scope.cluster !== filter.cluster)) continue;
    if ((group !== undefined && scope.group !== group) || (filter.resource !== undefined && scope.resource !== filter.resource)) continue;
    for (const entry of reads.overlay.entriesIn({ ...scope, ...(filter.namespace ? { namespace: filter.namespace } : {}) })) {
      if (entry.deleted || entry.object === undefined) continue;
      if (filter.name !== undefined && entry.key.name !== filter.name) continue;
      const gvr: GroupVersionResource = { group: scope.group, version: versionOf(entry.object), resource: scope.resource };
      const copy = await copies.copyOf({ shard: scope.shard, cluster: scope.cluster, gvr, namespace: entry.key.namespace, name: entry.key.name });
      if (copy !== undefined && matches(copy) && notAfter(copy.metadata.resourceVersion ?? '', snapshotVersion)) continue;
      const resolved = reads.overlay.resolve(entry.key, copy === undefined ? undefined : unwrapCachedObject(copy));
      if (resolved.source !== 'overlay' || resolved.object === undefined) continue;
      const item = synthesizeCachedObject(resolved.object, { shard: scope.shard, cluster: scope.cluster, gvr }, copy);
      if (matches(item)) extra.push({ sortKey: [scope.shard, scope.cluster, entry.key.namespace, entry.key.name].join('\u0000'), item });
    }
  }
  return extra.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0)).map((e) => e.item);
}

/**
 * overlayCachedObjects answers a lookup of CachedObjects by their own name through the overlay:
 * each cache hit is resolved (a newer recorded write replaces its original, a tombstone hides it),
 * and objects only the overlay holds are found by the name their copy will have.
 */
export function overlayCachedObjects(
  reads: OverlayReads, hits: readonly KubeObject[], name: string, where: { readonly cluster?: string; readonly shard?: string },
): KubeObject[] {
  const answered: KubeObject[] = [];
  const seen = new Set<string>();
  for (const copy of hits) {
    const origin = cachedObjectOrigin(copy);
    if (origin === undefined) continue;
    seen.add(overlayKeyString(keyOf(origin)));
    const resolved = reads.overlay.resolve(keyOf(origin), unwrapCachedObject(copy));
    if (resolved.source === 'cache') answered.push(copy);
    else if (resolved.object !== undefined) answered.push(synthesizeCachedObject(resolved.object, { shard: origin.shard, cluster: origin.cluster, gvr: origin.gvr }, copy));
  }
  for (const scope of reads.scopes()) {
    if ((where.shard !== undefined && scope.shard !== where.shard) || (where.cluster !== undefined && scope.cluster !== where.cluster)) continue;
    for (const entry of reads.overlay.entriesIn(scope)) {
      if (entry.deleted || entry.object === undefined || seen.has(overlayKeyString(entry.key))) continue;
      const gvr: GroupVersionResource = { group: scope.group, version: versionOf(entry.object), resource: scope.resource };
      if (cachedObjectNameToFind(gvr, entry.key.namespace, entry.key.name) !== name) continue;
      const resolved = reads.overlay.resolve(entry.key, undefined);
      if (resolved.source === 'overlay' && resolved.object !== undefined) {
        answered.push(synthesizeCachedObject(resolved.object, { shard: scope.shard, cluster: scope.cluster, gvr }));
      }
    }
  }
  return answered;
}

function keyOf(origin: { shard: string; cluster: string; gvr: GroupVersionResource; namespace: string; name: string }): OverlayKey {
  return { shard: origin.shard, cluster: origin.cluster, group: origin.gvr.group, resource: origin.gvr.resource, namespace: origin.namespace, name: origin.name };
}

// The version part of an object's apiVersion (`v1` of `v1`, `v1alpha1` of `machines.svm.io/v1alpha1`).
function versionOf(object: KubeObject): string {
  const apiVersion = object.apiVersion ?? '';
  return apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
}

// Whether a cache copy's resourceVersion is within a list snapshot (unknown counts as within).
function notAfter(copyVersion: string, snapshotVersion: string): boolean {
  if (!isNumericResourceVersion(copyVersion) || !isNumericResourceVersion(snapshotVersion)) return true;
  return compareResourceVersions(copyVersion, snapshotVersion) <= 0;
}
