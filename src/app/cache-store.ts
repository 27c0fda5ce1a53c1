// The cache: a store of CachedObjects with the indexes the controllers and lookups use, and the
// purge/count operations the root controller needs for one (shard, cluster, GVR).

import type { GroupVersionResource } from '../apimachinery/gvr.js';
import { cacheLocation } from '../cachedobjects/cache-location.js';
import { BY_SOURCE_CLUSTER_AND_SCHEMA, cachedObjectIndexes, sourceClusterAndSchemaKey } from '../cachedobjects/cached-object-indexes.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../cachedobjects/cached-object-resource.js';
import type { CopyPurger } from '../controllers/clustercachedresources/ccr-deps.js';
import { MemoryStore } from '../store/memory-store.js';
import type { ListOptions, ResourceStore, Scope } from '../store/store.js';

/**
 * createCacheStore makes the cache store and registers the CachedObject indexes on it. Its event
 * window keeps eventWindow events and at most eventWindowBytes of them (default: the store's).
 */
export function createCacheStore(eventWindow: number, eventWindowBytes?: number): MemoryStore {
  const store = new MemoryStore(eventWindowBytes === undefined ? { eventWindow } : { eventWindow, eventWindowBytes });
  for (const index of cachedObjectIndexes()) store.addIndex(CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE, index.name, index.fn);
  return store;
}

/** cachePurger deletes and counts the copies of one (shard, cluster, GVR) through the index. */
export function cachePurger(cache: ResourceStore): CopyPurger {
  const query = (shard: string, cluster: string, gvr: GroupVersionResource): [Scope, ListOptions] => [
    { cluster: cacheLocation(shard, cluster), group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE },
    { index: { name: BY_SOURCE_CLUSTER_AND_SCHEMA, value: sourceClusterAndSchemaKey(shard, cluster, gvr) } },
  ];
  return {
    async purge(shard, cluster, gvr) {
      const [scope, list] = query(shard, cluster, gvr);
      await cache.deleteCollection(scope, list, { ignoreFinalizers: true });
    },
    async count(shard, cluster, gvr) {
      const [scope, list] = query(shard, cluster, gvr);
      return (await cache.list(scope, list)).items.length;
    },
  };
}
