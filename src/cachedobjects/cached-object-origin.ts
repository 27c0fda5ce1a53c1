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

/** OriginField names one part of a CachedObjectOrigin that filters compare. */
export type OriginField = 'shard' | 'cluster' | 'schema' | 'group' | 'version' | 'resource' | 'namespace' | 'name';

/**
 * ORIGIN_FIELDS read one part of a CachedObject's origin without building the whole origin, for
 * filters that run over many copies; cachedObjectOrigin is built from the same readers.
 */
export const ORIGIN_FIELDS: { readonly [F in OriginField]: (co: KubeObject) => string } = {
  shard: (co) => co.metadata.annotations?.[SHARD_ANNOTATION] ?? '',
  cluster: (co) => co.metadata.annotations?.[CLUSTER_ANNOTATION] ?? '',
  schema: (co) => cachedObjectLabelValue(co, SCHEMA_LABEL) ?? '',
  group: (co) => groupFromName(cachedObjectLabelValue(co, GROUP_LABEL) ?? ''),
  version: (co) => cachedObjectLabelValue(co, VERSION_LABEL) ?? '',
  resource: (co) => cachedObjectLabelValue(co, RESOURCE_LABEL) ?? '',
  namespace: (co) => cachedObjectLabelValue(co, ORIGINAL_NAMESPACE_LABEL) ?? '',
  name: (co) => cachedObjectLabelValue(co, ORIGINAL_NAME_LABEL) ?? '',
};

/** hasOrigin tells whether a CachedObject names its original (schema and original name), as cachedObjectOrigin requires. */
export function hasOrigin(co: KubeObject): boolean {
  return ORIGIN_FIELDS.schema(co) !== '' && ORIGIN_FIELDS.name(co) !== '';
}

/** cachedObjectOrigin reads a CachedObject's origin, or undefined when its schema or original name is missing. */
export function cachedObjectOrigin(co: KubeObject): CachedObjectOrigin | undefined {
  if (!hasOrigin(co)) return undefined;
  const annotations = co.metadata.annotations ?? {};
  return {
    shard: ORIGIN_FIELDS.shard(co),
    cluster: ORIGIN_FIELDS.cluster(co),
    identityHash: annotations[IDENTITY_HASH_ANNOTATION] ?? '',
    schema: ORIGIN_FIELDS.schema(co),
    gvr: { group: ORIGIN_FIELDS.group(co), version: ORIGIN_FIELDS.version(co), resource: ORIGIN_FIELDS.resource(co) },
    namespace: ORIGIN_FIELDS.namespace(co),
    name: ORIGIN_FIELDS.name(co),
  };
}

/** cachedObjectLabelValue reads the real value of one of the six cachegate labels (the annotation wins when it was hashed). */
export function cachedObjectLabelValue(co: KubeObject, key: string): string | undefined {
  return co.metadata.annotations?.[key] ?? co.metadata.labels?.[key];
}
