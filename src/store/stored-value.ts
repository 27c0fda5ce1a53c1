// How an object is written to a backend and read back. The value is the object's JSON without
// metadata.resourceVersion: the revision of the write is the version, as in kube-apiserver over
// etcd, so a value never has to be rewritten to learn its own version.

import { deepFreezeMeasured } from '../apimachinery/object-bytes.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import type { SharedValues } from '../apimachinery/shared-values.js';

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

/**
 * decodeStoredValue reads a value written at revision; undefined when it is not an object's JSON.
 * Given shared, the object's repeated strings and records are shared with the values it decoded
 * before (a restart decodes every copy, and copies of one resource repeat most of themselves).
 */
export function decodeStoredValue(value: string, revision: number, shared?: SharedValues): DecodedValue | undefined {
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
  // Measured after sharing: the estimate counts a shared record once per holder, an upper bound.
  const object = shared === undefined ? (obj as KubeObject) : shared.freeze(obj as KubeObject);
  return { object, bytes: deepFreezeMeasured(object) };
}

/**
 * withVersion is a frozen planned object stamped with the revision it was committed at. Given the
 * planned object's measured bytes, only the version string's length changes the estimate, so the
 * object is not walked again (it is walked once per write, when the store freezes it).
 */
export function withVersion(obj: KubeObject, revision: number, plannedBytes?: number): DecodedValue {
  const resourceVersion = String(revision);
  const placeholder = obj.metadata.resourceVersion;
  const object: KubeObject = Object.freeze({ ...obj, metadata: Object.freeze({ ...obj.metadata, resourceVersion }) });
  if (plannedBytes === undefined || placeholder === undefined) return { object, bytes: deepFreezeMeasured(object) };
  return { object, bytes: plannedBytes + resourceVersion.length - placeholder.length };
}
