// Indexes over the original's labels and namespace and over the copy's location, so the read model answers label-selector and
// namespace lookups from index buckets instead of scanning the cache. A label is indexed twice:
// `key=value` (for `=`, `==` and `in`) and `key` (for exists). Keys cannot contain `=`, so the
// two forms never collide.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { IndexFunc } from '../store/store.js';
import { CLUSTER_ANNOTATION, SHARD_ANNOTATION } from './cached-object-annotations.js';
import type { LastKey } from './last-key.js';

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

/**
 * byLabel gives a store's BY_LABEL index function. Originals with equal labels share one labels
 * object (shared-values.ts), and a sync writes runs of them: the keys of the last labels object
 * are kept and handed out again, instead of two new strings per label per write.
 */
export function byLabel(): IndexFunc {
  let lastLabels: unknown;
  let lastKeys: readonly string[] = NONE;
  return (co) => {
    const labels = originalMeta(co)?.['labels'];
    if (!isPlainObject(labels)) return NONE;
    if (labels === lastLabels) return lastKeys;
    const keys = labelKeys(labels);
    // Only a frozen labels object (as every stored one is) cannot change behind the kept keys.
    if (Object.isFrozen(labels)) {
      lastKeys = keys;
      lastLabels = labels;
    }
    return keys;
  };
}

function labelKeys(labels: Record<string, unknown>): readonly string[] {
  const keys: string[] = [];
  for (const key in labels) {
    const value = labels[key];
    if (typeof value === 'string') keys.push(labelValueKey(key, value), labelPresenceKey(key));
  }
  return keys;
}

/** BY_NAMESPACE indexes CachedObjects by the namespace of their original ('' when cluster-scoped). */
export const BY_NAMESPACE = 'cachegate-byNamespace';

/** byNamespace gives a store's BY_NAMESPACE index function: the original's namespace, as the list last kept while it repeats. */
export function byNamespace(last: LastKey): IndexFunc {
  return (co) => {
    const meta = originalMeta(co);
    if (meta === undefined) return NONE;
    return last.of(typeof meta['namespace'] === 'string' ? meta['namespace'] : '', '', '', namespaceKey);
  };
}

const namespaceKey = (namespace: string): string => namespace;

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

/** byLocationPart gives a store's BY_LOCATION_PART index function: a CachedObject's shard and logical-cluster keys, those of the last location kept. */
export function byLocationPart(): IndexFunc {
  let lastShard: string | undefined;
  let lastCluster: string | undefined;
  let lastKeys: readonly string[] = NONE;
  return (co) => {
    const annotations = co.metadata.annotations;
    const shard = annotations?.[SHARD_ANNOTATION];
    const cluster = annotations?.[CLUSTER_ANNOTATION];
    if (shard === undefined || cluster === undefined || originalMeta(co) === undefined) return NONE;
    if (shard !== lastShard || cluster !== lastCluster) {
      lastKeys = [shardKey(shard), logicalClusterKey(cluster)];
      lastShard = shard;
      lastCluster = cluster;
    }
    return lastKeys;
  };
}

// The lists handed out are shared by the objects that give them: readonly by type, not frozen
// (V8's for-of over a frozen array allocates per step, and every index update loops over them).
const NONE: readonly string[] = [];

function originalMeta(co: KubeObject): Record<string, unknown> | undefined {
  const spec = co['spec'];
  if (!isPlainObject(spec) || !isPlainObject(spec['raw'])) return undefined;
  const meta = spec['raw']['metadata'];
  return isPlainObject(meta) ? meta : undefined;
}
