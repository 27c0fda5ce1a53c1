// Wrapping an original object into its CachedObject and back, and telling whether a stored copy
// still matches what the controller would write (copies edited by others are repaired).

import { AppError } from '../errors.js';
import { jsonEqual } from '../apimachinery/deep-equal.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import { deepFreeze, isPlainObject } from '../apimachinery/object-meta.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import {
  CLUSTER_ANNOTATION,
  IDENTITY_HASH_ANNOTATION,
  ORIGINAL_RESOURCE_UID_ANNOTATION,
  ORIGINAL_RESOURCE_VERSION_ANNOTATION,
  SHARD_ANNOTATION,
} from './cached-object-annotations.js';
import { cachedObjectLabels } from './cached-object-labels.js';
import { CACHED_OBJECT_API_VERSION, CACHED_OBJECT_KIND } from './cached-object-resource.js';

/** WrapInput is everything a CachedObject is built from. */
export interface WrapInput {
  readonly original: KubeObject;
  readonly gvr: GroupVersionResource;
  readonly shard: string;
  readonly cluster: string;
  /** identityHash of the ClusterCachedResource; '' leaves the annotation out. */
  readonly identityHash: string;
  /** name of the CachedObject, from cachedObjectName. */
  readonly name: string;
  /** schema of gvr, when the caller has it: one string shared by every copy instead of one per copy. */
  readonly schema?: string;
}

/** wrapCachedObject builds the deeply frozen CachedObject of an original, holding it by reference in spec.raw. */
export function wrapCachedObject(input: WrapInput): KubeObject {
  const { original } = input;
  const derived = cachedObjectLabels(original, input.gvr, input.schema);
  const annotations: Record<string, string> = {
    ...derived.annotations,
    [CLUSTER_ANNOTATION]: input.cluster,
    [SHARD_ANNOTATION]: input.shard,
    [ORIGINAL_RESOURCE_VERSION_ANNOTATION]: original.metadata.resourceVersion ?? '',
    [ORIGINAL_RESOURCE_UID_ANNOTATION]: original.metadata.uid ?? '',
  };
  if (input.identityHash !== '') annotations[IDENTITY_HASH_ANNOTATION] = input.identityHash;
  // deepFreeze stops at frozen values, so a frozen original is neither walked nor copied: at
  // 100k+ objects one shared copy per original matters.
  return deepFreeze({
    apiVersion: CACHED_OBJECT_API_VERSION,
    kind: CACHED_OBJECT_KIND,
    metadata: { name: input.name, labels: derived.labels, annotations },
    spec: { raw: original },
  });
}

/** unwrapCachedObject returns the original held in a CachedObject's spec.raw; InternalError if there is none. */
export function unwrapCachedObject(co: KubeObject): KubeObject {
  const raw = rawOf(co);
  if (!isPlainObject(raw) || !isPlainObject(raw.metadata)) {
    throw new AppError('InternalError', `CachedObject ${co.metadata.name ?? ''} has no spec.raw object`);
  }
  return raw as KubeObject;
}

/** isCachedObjectUpToDate tells whether a stored CachedObject has the desired labels, annotations and spec. */
export function isCachedObjectUpToDate(existing: KubeObject | undefined, desired: KubeObject): boolean {
  if (existing === undefined) return false;
  return (
    specEqual(existing.spec, desired.spec) &&
    jsonEqual(existing.metadata.labels ?? {}, desired.metadata.labels ?? {}) &&
    jsonEqual(existing.metadata.annotations ?? {}, desired.metadata.annotations ?? {})
  );
}

function rawOf(co: KubeObject): unknown {
  return isPlainObject(co.spec) ? co.spec.raw : undefined;
}

// Comparing raw by reference first skips walking the whole original in the common case where
// the stored copy still holds the very object the controller wrapped; fields added next to raw
// by an edit still count as a difference.
function specEqual(a: unknown, b: unknown): boolean {
  if (!isPlainObject(a) || !isPlainObject(b)) return jsonEqual(a, b);
  if (a.raw !== b.raw && !jsonEqual(a.raw, b.raw)) return false;
  return jsonEqual({ ...a, raw: null }, { ...b, raw: null });
}
