// Annotation keys a CachedObject carries besides the full values of hashed labels
// (README.md here). The first four follow kcp; the identity hash is cachegate's own, so the
// identity index can be built from the object alone.

import { LOGICAL_CLUSTER_ANNOTATION } from '../apimachinery/logical-cluster.js';

/** CLUSTER_ANNOTATION holds the logical cluster the original lives in (as the original does). */
export const CLUSTER_ANNOTATION = LOGICAL_CLUSTER_ANNOTATION;

/** SHARD_ANNOTATION holds the source (shard) the original was read from. */
export const SHARD_ANNOTATION = 'kcp.io/shard';

/** ORIGINAL_RESOURCE_VERSION_ANNOTATION holds the original's resourceVersion at replication time. */
export const ORIGINAL_RESOURCE_VERSION_ANNOTATION = 'cache.kcp.io/original-resource-version';

/** ORIGINAL_RESOURCE_UID_ANNOTATION holds the original's uid, under kcp's own key (capital UID), so kcp's consumers find it. */
export const ORIGINAL_RESOURCE_UID_ANNOTATION = 'cache.kcp.io/original-resource-UID';

/**
 * LEGACY_ORIGINAL_RESOURCE_UID_ANNOTATION is the key copies written by earlier cachegate versions
 * carry instead: still read, until the controllers have written those copies again.
 */
export const LEGACY_ORIGINAL_RESOURCE_UID_ANNOTATION = 'cache.kcp.io/original-resource-uid';

/** originalUidOf reads a copy's original uid from its annotations, under either key ('' when neither). */
export function originalUidOf(annotations: Readonly<Record<string, string>> | undefined): string {
  return annotations?.[ORIGINAL_RESOURCE_UID_ANNOTATION] ?? annotations?.[LEGACY_ORIGINAL_RESOURCE_UID_ANNOTATION] ?? '';
}

/** IDENTITY_HASH_ANNOTATION holds the identity hash of the ClusterCachedResource that replicated the original. */
export const IDENTITY_HASH_ANNOTATION = 'cache.kcp.io/identity-hash';
