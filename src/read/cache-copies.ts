// Point and scope lookups of the cache's copies of originals, for the overlay: the write service
// reads the copy of the object it just wrote (so a write whose event beat its response is not
// kept), and the read model reads copies to merge them with recorded writes. Every lookup is an
// index query (originalCopyQuery, BY_SOURCE_CLUSTER_AND_SCHEMA); none scans the cache.

import type { GroupVersionResource } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { cacheLocation } from '../cachedobjects/cache-location.js';
import { BY_SOURCE_CLUSTER_AND_SCHEMA, originalCopyQuery, sourceClusterAndSchemaKey } from '../cachedobjects/cached-object-indexes.js';
import { cachedObjectName } from '../cachedobjects/cached-object-name.js';
import { cachedObjectOrigin } from '../cachedobjects/cached-object-origin.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../cachedobjects/cached-object-resource.js';
import { wrapCachedObject } from '../cachedobjects/wrap-cached-object.js';
import type { ResourceStore } from '../store/store.js';

/** OriginalLocation names one original: where it lives and which resource at which version. */
export interface OriginalLocation {
  readonly shard: string;
  readonly cluster: string;
  /** gvr.group is '' (or `core`) for the core group. */
  readonly gvr: GroupVersionResource;
  /** namespace is '' for cluster-scoped originals. */
  readonly namespace: string;
  readonly name: string;
}

/** CacheCopies reads CachedObjects of originals from the cache store. */
export class CacheCopies {
  readonly #cache: ResourceStore;

  constructor(cache: ResourceStore) {
    this.#cache = cache;
  }

  /** copyOf is the CachedObject of one original, or undefined when the cache holds none. */
  async copyOf(at: OriginalLocation): Promise<KubeObject | undefined> {
    const gvr = normalized(at.gvr);
    const query = originalCopyQuery({ shard: at.shard, cluster: at.cluster, schema: gvr, namespace: at.namespace, name: at.name });
    const page = await this.#cache.list({ cluster: query.cluster, group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE }, { index: query.index });
    return page.items.find(query.matches);
  }

  /** copiesIn lists the CachedObjects of one resource in one (shard, cluster), optionally one namespace. */
  async copiesIn(shard: string, cluster: string, gvr: GroupVersionResource, namespace?: string): Promise<KubeObject[]> {
    const page = await this.#cache.list(
      { cluster: cacheLocation(shard, cluster), group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE },
      { index: { name: BY_SOURCE_CLUSTER_AND_SCHEMA, value: sourceClusterAndSchemaKey(shard, cluster, normalized(gvr)) } },
    );
    if (namespace === undefined || namespace === '') return [...page.items];
    return page.items.filter((copy) => cachedObjectOrigin(copy)?.namespace === namespace);
  }
}

/**
 * synthesizeCachedObject wraps an object recorded in the overlay as the CachedObject the cache
 * will hold once it has replicated it: same name, labels and annotations, with the identity hash
 * taken from the cache's current copy when there is one (else left out).
 */
export function synthesizeCachedObject(original: KubeObject, at: Omit<OriginalLocation, 'name' | 'namespace'>, cacheCopy?: KubeObject): KubeObject {
  const gvr = normalized(at.gvr);
  const namespace = original.metadata.namespace ?? '';
  const name = original.metadata.name ?? '';
  const identityHash = cacheCopy === undefined ? '' : (cachedObjectOrigin(cacheCopy)?.identityHash ?? '');
  const cachedName = cacheCopy?.metadata.name ?? cachedObjectName(gvr, namespace, name);
  return wrapCachedObject({ original, gvr, shard: at.shard, cluster: at.cluster, identityHash, name: cachedName });
}

function normalized(gvr: GroupVersionResource): GroupVersionResource {
  return gvr.group === 'core' ? { ...gvr, group: '' } : gvr;
}
