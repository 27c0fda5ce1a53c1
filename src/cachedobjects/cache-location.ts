// Where a CachedObject lives in the cache store. The cache is one store whose "cluster" dimension
// is the pair (shard, logical cluster), joined by a character neither name may contain, so one
// logical cluster's copies from one source are a single store cluster.

/** CACHE_LOCATION_SEPARATOR joins shard and logical cluster; both name patterns exclude it. */
export const CACHE_LOCATION_SEPARATOR = '|';

/** cacheLocation gives the cache store's cluster key of a (shard, logical cluster). */
export function cacheLocation(shard: string, cluster: string): string {
  return `${shard}${CACHE_LOCATION_SEPARATOR}${cluster}`;
}

/** SHARD_NAME_PATTERN is what a shard (source) name must match in cache paths, as in kcp. */
export const SHARD_NAME_PATTERN = /^[a-z0-9:-]{1,61}$/;
