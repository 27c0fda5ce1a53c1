// How an object is written to a backend and read back. The value is the object's JSON without
// metadata.resourceVersion: the revision of the write is the version, as in kube-apiserver over
// etcd, so a value never has to be rewritten to learn its own version.

import { deepFreezeMeasured } from '../apimachinery/object-bytes.js';
import type { KubeObject } from '../apimachinery/object-meta.js';

/** encodeStoredValue is the backend value of an object. */
export function encodeStoredValue(obj: KubeObject): string {
  if (obj.metadata?.resourceVersion === undefined) return JSON.stringify(obj);
  // JSON.stringify leaves out a property whose value is undefined.
  return JSON.stringify({ ...obj, metadata: { ...obj.metadata, resourceVersion: undefined } });
}

/** DecodedValue is a stored object, frozen, with its estimated size. */
export interface DecodedValue {
  readonly object: KubeObject;
  readonly bytes: number;
}

/** decodeStoredValue reads a value written at revision; undefined when it is not an object's JSON. */
export function decodeStoredValue(value: string, revision: number): DecodedValue | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const obj = parsed as { metadata?: unknown };
  if (typeof obj.metadata !== 'object' || obj.metadata === null || Array.isArray(obj.metadata)) return undefined;
  (obj.metadata as Record<string, unknown>).resourceVersion = String(revision);
  const object = obj as KubeObject;
  return { object, bytes: deepFreezeMeasured(object) };
}

/** withVersion is a planned object stamped with the revision it was committed at, frozen. */
export function withVersion(obj: KubeObject, revision: number): DecodedValue {
  const object: KubeObject = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } };
  return { object, bytes: deepFreezeMeasured(object) };
}
