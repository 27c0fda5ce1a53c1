// The cache API: CachedObjects served read-only with kcp's cache-server paths,
// `/services/cache/shards/{shard|*}/clusters/{cluster|*}/apis/cache.kcp.io/v1alpha1/cachedobjects`.
// Only cachegate's controllers write the cache; every write through this API is refused (405).

import { LOGICAL_CLUSTER_NAME_PATTERN } from '../../apimachinery/logical-cluster.js';
import { AppError } from '../../errors.js';
import { CLUSTER_ANNOTATION, SHARD_ANNOTATION } from '../../cachedobjects/cached-object-annotations.js';
import { cacheLocation, SHARD_NAME_PATTERN } from '../../cachedobjects/cache-location.js';
import {
  CACHED_OBJECT_KIND, CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE, CACHED_OBJECTS_VERSION,
} from '../../cachedobjects/cached-object-resource.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { ClusterCatalog } from '../cluster-catalog.js';
import type { Location } from '../request-target.js';
import type { ResourceInfo } from '../resource-info.js';

/** CACHED_OBJECTS_INFO describes the one resource the cache API serves. */
export const CACHED_OBJECTS_INFO: ResourceInfo = Object.freeze({
  group: CACHED_OBJECTS_GROUP,
  version: CACHED_OBJECTS_VERSION,
  resource: CACHED_OBJECTS_RESOURCE,
  singular: 'cachedobject',
  kind: CACHED_OBJECT_KIND,
  listKind: `${CACHED_OBJECT_KIND}List`,
  namespaced: false,
  statusSubresource: false,
  shortNames: [],
  categories: ['kcp'],
  nameRule: 'subdomain',
  storageVersion: true,
  readOnly: true,
});

/** cacheApiCatalog serves CachedObjects in every (shard, cluster). */
export function cacheApiCatalog(): ClusterCatalog {
  return new ClusterCatalog([CACHED_OBJECTS_INFO]);
}

/** locateInCache reads `:shard` and `:cluster`; a `*` in one of them narrows by the other's annotation. */
export function locateInCache(params: Readonly<Record<string, string>>): Location {
  const shard = params['shard'] ?? '';
  const cluster = params['cluster'] ?? '';
  if (shard !== '*' && !SHARD_NAME_PATTERN.test(shard)) throw new AppError('BadRequest', `invalid shard name "${shard}": must match ${SHARD_NAME_PATTERN.source}`);
  if (cluster !== '*' && !LOGICAL_CLUSTER_NAME_PATTERN.test(cluster)) throw new AppError('BadRequest', `invalid logical cluster name "${cluster}": must match ${LOGICAL_CLUSTER_NAME_PATTERN.source}`);
  if (shard !== '*' && cluster !== '*') return { cluster: cacheLocation(shard, cluster) };
  if (shard === '*' && cluster === '*') return { cluster: undefined };
  return shard === '*'
    ? { cluster: undefined, where: annotationIs(CLUSTER_ANNOTATION, cluster) }
    : { cluster: undefined, where: annotationIs(SHARD_ANNOTATION, shard) };
}

function annotationIs(key: string, value: string): { key: string; matches: (obj: KubeObject) => boolean } {
  return { key: `${key}=${value}`, matches: (obj) => obj.metadata.annotations?.[key] === value };
}
