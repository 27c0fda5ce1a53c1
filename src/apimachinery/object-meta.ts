// Shapes of Kubernetes objects as cachegate handles them: plain JSON with a typed metadata.
// Stored objects are deeply frozen, so every type here is readonly.

/** Labels is a label or annotation map. */
export type StringMap = Readonly<Record<string, string>>;

/** OwnerReference points from an object to its owner. */
export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

/** ObjectMeta is the metadata every Kubernetes object carries. */
export interface ObjectMeta {
  readonly name?: string;
  readonly generateName?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly creationTimestamp?: string;
  readonly deletionTimestamp?: string;
  readonly deletionGracePeriodSeconds?: number;
  readonly labels?: StringMap;
  readonly annotations?: StringMap;
  readonly finalizers?: readonly string[];
  readonly ownerReferences?: readonly OwnerReference[];
  readonly [field: string]: unknown;
}

/** KubeObject is any Kubernetes object: apiVersion, kind, metadata and free-form fields. */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

/** JsonValue is any value JSON can carry. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** isPlainObject tells whether a JSON value is an object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** deepFreeze freezes a JSON value and everything inside it, and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  // Index and for-in loops allocate no key array; Object.keys made one per object frozen, the
  // largest allocation of a sync after the parsed lists themselves.
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  else for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}
