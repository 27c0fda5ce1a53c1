// Indexes over the original's labels and namespace and over the copy's location, so the read model answers label-selector and
// namespace lookups from index buckets instead of scanning the cache. A label is indexed twice:
// `key=value` (for `=`, `==` and `in`) and `key` (for exists). Keys cannot contain `=`, so the
// two forms never collide.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { IndexFunc } from '../store/store.js';
import { CLUSTER_ANNOTATION, SHARD_ANNOTATION } from './cached-object-annotations.js';

/** BY_LABEL indexes CachedObjects by the labels of their original. */
export const BY_LABEL = 'cachegate-byLabel';

/** labelValueKey is the BY_LABEL key of one label with one value. */
export function labelValueKey(key: string, value: string): string {
  return `${key}=${value}`;
}

/** labelPresenceKey is the BY_LABEL key of a label key with any value. */
export function labelPresenceKey(key: string): string {
  return key;
}

/** byLabel lists the BY_LABEL keys of a CachedObject. */
export const byLabel: IndexFunc = (co) => {
  const labels = originalMeta(co)?.['labels'];
  if (!isPlainObject(labels)) return [];
  const keys: string[] = [];
  for (const [key, value] of Object.entries(labels)) {
    if (typeof value !== 'string') continue;
    keys.push(labelValueKey(key, value), labelPresenceKey(key));
  }
  return keys;
};

/** BY_NAMESPACE indexes CachedObjects by the namespace of their original ('' when cluster-scoped). */
export const BY_NAMESPACE = 'cachegate-byNamespace';

/** byNamespace gives the original's namespace. */
export const byNamespace: IndexFunc = (co) => {
  const meta = originalMeta(co);
  if (meta === undefined) return [];
  return [typeof meta['namespace'] === 'string' ? meta['namespace'] : ''];
};

/** BY_LOCATION_PART indexes CachedObjects by `shard=<shard>` and by `cluster=<logical cluster>`. */
export const BY_LOCATION_PART = 'cachegate-byLocationPart';

/** shardKey is the BY_LOCATION_PART key of a shard. */
export function shardKey(shard: string): string {
  return `shard=${shard}`;
}

/** logicalClusterKey is the BY_LOCATION_PART key of a logical cluster (in any shard). */
export function logicalClusterKey(cluster: string): string {
  return `cluster=${cluster}`;
}

/** byLocationPart gives a CachedObject's shard and logical-cluster keys. */
export const byLocationPart: IndexFunc = (co) => {
  const annotations = co.metadata.annotations;
  const shard = annotations?.[SHARD_ANNOTATION];
  const cluster = annotations?.[CLUSTER_ANNOTATION];
  if (shard === undefined || cluster === undefined || originalMeta(co) === undefined) return [];
  return [shardKey(shard), logicalClusterKey(cluster)];
};

function originalMeta(co: KubeObject): Record<string, unknown> | undefined {
  const spec = co['spec'];
  if (!isPlainObject(spec) || !isPlainObject(spec['raw'])) return undefined;
  const meta = spec['raw']['metadata'];
  return isPlainObject(meta) ? meta : undefined;
}
