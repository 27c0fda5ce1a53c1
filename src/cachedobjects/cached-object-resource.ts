// The API coordinates of CachedObjects: the wrapper type the cache stores.

/** CACHED_OBJECTS_GROUP is the API group of CachedObjects. */
export const CACHED_OBJECTS_GROUP = 'cache.kcp.io';

/** CACHED_OBJECTS_VERSION is the API version of CachedObjects. */
export const CACHED_OBJECTS_VERSION = 'v1alpha1';

/** CACHED_OBJECTS_RESOURCE is the plural resource name of CachedObjects. */
export const CACHED_OBJECTS_RESOURCE = 'cachedobjects';

/** CACHED_OBJECT_KIND is the kind of a CachedObject. */
export const CACHED_OBJECT_KIND = 'CachedObject';

/** CACHED_OBJECT_API_VERSION is the apiVersion string every CachedObject carries. */
export const CACHED_OBJECT_API_VERSION = `${CACHED_OBJECTS_GROUP}/${CACHED_OBJECTS_VERSION}`;
