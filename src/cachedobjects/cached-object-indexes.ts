// Store indexes over CachedObjects, each as name + index function + key builder side by side so
// writers and readers of a key cannot drift. Keys are built from labels and annotations (real
// values, never hashed stand-ins) and never from the CachedObject's name. A `<namespace>/<name>`
// part is written `<name>` alone for cluster-scoped originals, as Kubernetes' namespace keys are.

import { groupResourceKey, schemaOf } from '../apimachinery/gvr.js';
import { labelIndexFunc, labelIndexName } from '../apimachinery/label-index.js';
import type { GroupResource, GroupVersionResource } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import type { IndexFunc } from '../store/store.js';
import { cacheLocation } from './cache-location.js';
import { IDENTITY_HASH_ANNOTATION } from './cached-object-annotations.js';
import { ORIGIN_FIELDS, hasOrigin } from './cached-object-origin.js';
import { LastKey } from './last-key.js';
import { isReadableName } from './cached-object-name.js';
import { AWAY_FROM_READABLE_NAME, awayFromReadableName } from './away-from-readable-name.js';
import { SCHEMA_LABEL } from './cached-object-labels.js';
import { BY_LABEL, BY_LOCATION_PART, BY_NAMESPACE, byLabel, byLocationPart, byNamespace } from './cached-object-label-index.js';

/** SchemaRef is a GVR or its schema string `<version>.<resource>.<group>`. */
export type SchemaRef = GroupVersionResource | string;

/** OriginalRef identifies one original across sources and logical clusters. */
export interface OriginalRef {
  readonly shard: string;
  readonly cluster: string;
  readonly schema: SchemaRef;
  /** namespace is '' for cluster-scoped originals. */
  readonly namespace: string;
  readonly name: string;
}

/** BY_GVR_AND_LOGICAL_CLUSTER indexes by `<version>.<resource>.<group>|<cluster>` (kcp's name). */
export const BY_GVR_AND_LOGICAL_CLUSTER = 'kcp-byGVRAndLogicalCluster';

/** gvrAndLogicalClusterKey builds a BY_GVR_AND_LOGICAL_CLUSTER key. */
export function gvrAndLogicalClusterKey(gvr: SchemaRef, cluster: string): string {
  return `${schemaText(gvr)}|${cluster}`;
}

function byGvrAndLogicalCluster(last: LastKey): IndexFunc {
  return (obj) => {
    const cluster = hasOrigin(obj) ? ORIGIN_FIELDS.cluster(obj) : '';
    return cluster === '' ? NONE : last.of(ORIGIN_FIELDS.schema(obj), cluster, '', gvrAndLogicalClusterKey);
  };
}

/** BY_IDENTITY_AND_GROUP_RESOURCE indexes by `<identityHash>|<resource>.<group>` (kcp's name); no identity → not indexed. */
export const BY_IDENTITY_AND_GROUP_RESOURCE = 'kcp-byIdentityAndGroupResource';

/** identityAndGroupResourceKey builds a BY_IDENTITY_AND_GROUP_RESOURCE key (group `core` when empty). */
export function identityAndGroupResourceKey(identityHash: string, gr: GroupResource): string {
  return `${identityHash}|${groupResourceKey(gr)}`;
}

function byIdentityAndGroupResource(last: LastKey): IndexFunc {
  return (obj) => {
    const identityHash = obj.metadata.annotations?.[IDENTITY_HASH_ANNOTATION];
    const resource = hasOrigin(obj) ? ORIGIN_FIELDS.resource(obj) : '';
    if (!identityHash || resource === '') return NONE;
    return last.of(identityHash, ORIGIN_FIELDS.group(obj), resource, identityGroupResourceKeyOf);
  };
}

/** BY_GROUP_RESOURCE indexes by `<resource>.<group>` (kcp's name). */
export const BY_GROUP_RESOURCE = 'kcp-byGroupResource';

/** groupResourceIndexKey builds a BY_GROUP_RESOURCE key (group `core` when empty). */
export function groupResourceIndexKey(gr: GroupResource): string {
  return groupResourceKey(gr);
}

function byGroupResource(last: LastKey): IndexFunc {
  return (obj) => {
    const resource = hasOrigin(obj) ? ORIGIN_FIELDS.resource(obj) : '';
    return resource === '' ? NONE : last.of(ORIGIN_FIELDS.group(obj), resource, '', groupResourceKeyOf);
  };
}

/** BY_SCHEMA indexes by `<schema>`. */
export const BY_SCHEMA = 'cachegate-bySchema';

/** schemaIndexKey builds a BY_SCHEMA key. */
export function schemaIndexKey(schema: SchemaRef): string {
  return schemaText(schema);
}

function bySchema(last: LastKey): IndexFunc {
  return (obj) => (hasOrigin(obj) ? last.of(ORIGIN_FIELDS.schema(obj), '', '', schemaIndexKey) : NONE);
}

/**
 * BY_SCHEMA_AND_NAME indexes by `<schema>.<namespace>.<name>` (`<schema>.<name>` for a
 * cluster-scoped original), for lookups by GVR and name across clusters. The key is built from
 * labels like every other key, in the form of the copy's readable name: an index keeps no string of
 * its own for a value equal to the object's name (index-buckets.ts), so this key, unique per copy,
 * costs no memory for a copy named the readable way. The form is not unique (`v1.a.b` + `x` and
 * `v1.a` + `b.x` give one key), so a bucket may hold copies of other originals: readers keep the
 * copies isCopyOf accepts.
 */
export const BY_SCHEMA_AND_NAME = 'cachegate-bySchemaAndName';

/** schemaAndNameKey builds a BY_SCHEMA_AND_NAME key (namespace '' for cluster-scoped, and for the any-namespace alias). */
export function schemaAndNameKey(schema: SchemaRef, namespace: string, name: string): string {
  return namespace === '' ? `${schemaText(schema)}.${name}` : `${schemaText(schema)}.${namespace}.${name}`;
}

/**
 * isCopyOf tells whether a copy found under a BY_SCHEMA_AND_NAME key wraps the original of that
 * schema and name, and of that namespace when one is given ('' is cluster-scoped).
 */
export function isCopyOf(copy: KubeObject, schema: string, name: string, namespace?: string): boolean {
  return ORIGIN_FIELDS.name(copy) === name
    && ORIGIN_FIELDS.schema(copy) === schema
    && (namespace === undefined || ORIGIN_FIELDS.namespace(copy) === namespace);
}

// A namespaced original is also indexed without its namespace (`<schema>.<name>`), so a lookup by
// gvr+name that leaves the namespace out is one bucket read.
// A copy at its readable name has the exact key as its name: that string is handed out instead
// of the same text joined anew on every write, and the store keeps that entry in no bucket (the
// table's name map already leads from it to the copy; see src/store/own-name-entries.ts).
const bySchemaAndName: IndexFunc = Object.assign((obj: KubeObject): readonly string[] => {
  if (!hasOrigin(obj)) return [];
  const schema = ORIGIN_FIELDS.schema(obj);
  const namespace = ORIGIN_FIELDS.namespace(obj);
  const name = ORIGIN_FIELDS.name(obj);
  const own = obj.metadata.name ?? '';
  const exact = isReadableName(own, schema, namespace, name) ? own : schemaAndNameKey(schema, namespace, name);
  return namespace === '' ? [exact] : [exact, schemaAndNameKey(schema, '', name)];
}, { keepsOwnName: true });

/**
 * OriginalCopyQuery finds the copy of one original: indexes are kept per cache location (one
 * store cluster per shard and logical cluster), so inside that location the exact
 * BY_SCHEMA_AND_NAME key holds the copy; matches keeps it apart from copies of other originals
 * under the same key (the any-namespace alias, or a key that two schemas and names share).
 */
export interface OriginalCopyQuery {
  readonly cluster: string;
  readonly index: { readonly name: string; readonly value: string };
  readonly matches: (copy: KubeObject) => boolean;
}

/** originalCopyQuery is the store scope cluster, index query and filter of the copy of ref. */
export function originalCopyQuery(ref: OriginalRef): OriginalCopyQuery {
  const schema = schemaText(ref.schema);
  return {
    cluster: cacheLocation(ref.shard, ref.cluster),
    index: { name: BY_SCHEMA_AND_NAME, value: schemaAndNameKey(schema, ref.namespace, ref.name) },
    matches: (copy) => isCopyOf(copy, schema, ref.name, ref.namespace),
  };
}

/** BY_SOURCE_CLUSTER_AND_SCHEMA indexes by `<shard>|<cluster>|<schema>`, for purges and counts. */
export const BY_SOURCE_CLUSTER_AND_SCHEMA = 'cachegate-bySourceClusterAndSchema';

/** sourceClusterAndSchemaKey builds a BY_SOURCE_CLUSTER_AND_SCHEMA key. */
export function sourceClusterAndSchemaKey(shard: string, cluster: string, schema: SchemaRef): string {
  return `${shard}|${cluster}|${schemaText(schema)}`;
}

function bySourceClusterAndSchema(last: LastKey): IndexFunc {
  return (obj) => {
    if (!hasOrigin(obj)) return NONE;
    const shard = ORIGIN_FIELDS.shard(obj);
    const cluster = ORIGIN_FIELDS.cluster(obj);
    return shard === '' || cluster === '' ? NONE : last.of(shard, cluster, ORIGIN_FIELDS.schema(obj), sourceClusterAndSchemaKey);
  };
}

/** CachedObjectIndex is one index to register on the cache store. */
export interface CachedObjectIndex {
  readonly name: string;
  readonly fn: IndexFunc;
}

/**
 * BY_SCHEMA_LABEL indexes copies by their own schema label as it is written (a hashed stand-in for a
 * long schema), so that kube-API lists and watches selecting the copies of one resource by that
 * label read one bucket, or no label at all when every copy carries it (see src/store/label-index-plan.ts).
 * BY_SCHEMA cannot serve them: it holds the full schema, which a hashed label does not equal.
 */
export const BY_SCHEMA_LABEL = labelIndexName(SCHEMA_LABEL);

/**
 * cachedObjectIndexes lists every CachedObject index, to register on one cache store. Each call
 * gives functions of their own: the keys they remember (LastKey) belong to one store.
 */
export function cachedObjectIndexes(): readonly CachedObjectIndex[] {
  return [
    { name: BY_GVR_AND_LOGICAL_CLUSTER, fn: byGvrAndLogicalCluster(new LastKey()) },
    { name: BY_IDENTITY_AND_GROUP_RESOURCE, fn: byIdentityAndGroupResource(new LastKey()) },
    { name: BY_GROUP_RESOURCE, fn: byGroupResource(new LastKey()) },
    { name: BY_SCHEMA, fn: bySchema(new LastKey()) },
    { name: BY_SCHEMA_AND_NAME, fn: bySchemaAndName },
    { name: BY_SOURCE_CLUSTER_AND_SCHEMA, fn: bySourceClusterAndSchema(new LastKey()) },
    { name: BY_LABEL, fn: byLabel() },
    { name: BY_NAMESPACE, fn: byNamespace(new LastKey()) },
    { name: BY_LOCATION_PART, fn: byLocationPart() },
    { name: AWAY_FROM_READABLE_NAME, fn: awayFromReadableName },
    { name: BY_SCHEMA_LABEL, fn: labelIndexFunc(SCHEMA_LABEL) },
  ];
}

// An object that is not a CachedObject, or lacks a part its key needs, is left out of the index
// (NONE) rather than filed under a key with an empty part that could collide with a real one.
// Each index reads only the origin fields its key needs (ORIGIN_FIELDS), not the whole origin:
// every cache write runs every index function.
const NONE: readonly string[] = [];

// LastKey builders taking the parts as strings; declared once, so an index call allocates no closure.
function identityGroupResourceKeyOf(identityHash: string, group: string, resource: string): string {
  return identityAndGroupResourceKey(identityHash, { group, resource });
}

function groupResourceKeyOf(group: string, resource: string): string {
  return groupResourceIndexKey({ group, resource });
}

function schemaText(schema: SchemaRef): string {
  return typeof schema === 'string' ? schema : schemaOf(schema);
}

