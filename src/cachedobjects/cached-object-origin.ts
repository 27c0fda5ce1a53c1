// Reading back what a CachedObject wraps, from its labels and annotations only (never from its
// name). A label that was hashed is read from the annotation of the same key, so callers always
// see real values.

import { groupFromName } from '../apimachinery/gvr.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { CLUSTER_ANNOTATION, IDENTITY_HASH_ANNOTATION, SHARD_ANNOTATION } from './cached-object-annotations.js';
import {
  GROUP_LABEL,
  ORIGINAL_NAME_LABEL,
  ORIGINAL_NAMESPACE_LABEL,
  RESOURCE_LABEL,
  SCHEMA_LABEL,
  VERSION_LABEL,
} from './cached-object-labels.js';

/** CachedObjectOrigin says which original a CachedObject wraps and where it came from; '' = unknown. */
export interface CachedObjectOrigin {
  readonly shard: string;
  readonly cluster: string;
  /** identityHash is '' when the CachedObject records none. */
  readonly identityHash: string;
  readonly schema: string;
  /** gvr.group is '' for the core group. */
  readonly gvr: GroupVersionResource;
  /** namespace is '' for cluster-scoped originals. */
  readonly namespace: string;
  readonly name: string;
}

/** cachedObjectOrigin reads a CachedObject's origin, or undefined when its schema or original name is missing. */
export function cachedObjectOrigin(co: KubeObject): CachedObjectOrigin | undefined {
  const schema = cachedObjectLabelValue(co, SCHEMA_LABEL);
  const name = cachedObjectLabelValue(co, ORIGINAL_NAME_LABEL);
  if (!schema || !name) return undefined;
  const annotations = co.metadata.annotations ?? {};
  return {
    shard: annotations[SHARD_ANNOTATION] ?? '',
    cluster: annotations[CLUSTER_ANNOTATION] ?? '',
    identityHash: annotations[IDENTITY_HASH_ANNOTATION] ?? '',
    schema,
    gvr: {
      group: groupFromName(cachedObjectLabelValue(co, GROUP_LABEL) ?? ''),
      version: cachedObjectLabelValue(co, VERSION_LABEL) ?? '',
      resource: cachedObjectLabelValue(co, RESOURCE_LABEL) ?? '',
    },
    namespace: cachedObjectLabelValue(co, ORIGINAL_NAMESPACE_LABEL) ?? '',
    name,
  };
}

/** cachedObjectLabelValue reads the real value of one of the six cachegate labels (the annotation wins when it was hashed). */
export function cachedObjectLabelValue(co: KubeObject, key: string): string | undefined {
  return co.metadata.annotations?.[key] ?? co.metadata.labels?.[key];
}
