// Which (shard, logical cluster) places of the cache hold copies, read from the counts of one
// index so no object is visited: a read naming a cluster but no shard looks here for its shards.

import { cacheLocation } from '../cachedobjects/cache-location.js';
import { BY_SOURCE_CLUSTER_AND_SCHEMA } from '../cachedobjects/cached-object-indexes.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../cachedobjects/cached-object-resource.js';
import type { ResourceStore } from '../store/store.js';

/** CachePlace is one (shard, logical cluster) pair of the cache. */
export interface CachePlace {
  shard: string;
  cluster: string;
}

/** cacheLocations are the cache's (shard, cluster) keys matching where. */
export async function cacheLocations(cache: ResourceStore, where: { readonly cluster?: string; readonly shard?: string }): Promise<string[]> {
  return (await cachePlaces(cache, where)).map((place) => cacheLocation(place.shard, place.cluster));
}

/** cachePlaces are the (shard, logical cluster) pairs holding copies that match where. */
export async function cachePlaces(cache: ResourceStore, where: { readonly cluster?: string; readonly shard?: string }): Promise<CachePlace[]> {
  if (where.shard !== undefined && where.cluster !== undefined) return [{ shard: where.shard, cluster: where.cluster }];
  const counts = await cache.indexCounts(CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE, BY_SOURCE_CLUSTER_AND_SCHEMA);
  const found = new Map<string, CachePlace>();
  for (const { value } of counts) {
    const [shard = '', cluster = ''] = value.split('|');
    if ((where.shard === undefined || shard === where.shard) && (where.cluster === undefined || cluster === where.cluster)) {
      found.set(cacheLocation(shard, cluster), { shard, cluster });
    }
  }
  return [...found.values()];
}
