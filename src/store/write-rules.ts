// How a write turns the caller's object into the stored one: system metadata the client cannot
// set, status-subresource splitting, generation bumps and deletion marks. Only the top level and
// metadata are copied; everything below (spec, status, labels) is taken by reference, and the
// caller gives up ownership of it, because the store deep-freezes the result.

import { flatString } from '../apimachinery/flat-string.js';
import { jsonEqual } from '../apimachinery/deep-equal.js';
import type { CompactRecords } from '../apimachinery/compact-records.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { KubeObject, ObjectMeta } from '../apimachinery/object-meta.js';

/** SYSTEM_METADATA are the metadata fields the store owns; client-sent values are ignored. */
const SYSTEM_METADATA: ReadonlySet<string> = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
]);

type MutableMeta = Record<string, unknown>;

/** CreateStamp is the system metadata of a new object. */
export interface CreateStamp {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly creationTimestamp: string;
}

/** rfc3339Seconds formats a time as Kubernetes does: `2026-11-29T14:52:30Z`. */
export function rfc3339Seconds(date: Date): string {
  return flatString(`${date.toISOString().slice(0, 19)}Z`);
}


/** CreateRules are how a resource's new objects are built (see CreateOptions). */
export interface CreateRules {
  readonly statusSubresource: boolean;
  readonly generation: boolean;
}

/**
 * createdObject builds a new object: system metadata from stamp, the rest from the client. A stamp
 * without a resourceVersion (a dry run: nothing is stored, so no version is taken) leaves it out.
 */
export function createdObject(obj: KubeObject, stamp: CreateStamp, rules: CreateRules, records?: CompactRecords): KubeObject {
  const meta: MutableMeta = { name: stamp.name };
  if (stamp.namespace !== '') meta.namespace = stamp.namespace;
  meta.uid = stamp.uid;
  if (stamp.resourceVersion !== '') meta.resourceVersion = stamp.resourceVersion;
  if (rules.generation) meta.generation = 1;
  meta.creationTimestamp = stamp.creationTimestamp;
  copyClientMeta(obj.metadata, meta);
  return withBody(obj, compactMeta(meta, records), rules.statusSubresource ? 'drop' : 'client', undefined);
}

/** updatedObject builds the main-resource update of stored from obj, at resourceVersion rv. */
export function updatedObject(stored: KubeObject, obj: KubeObject, rv: string, statusSubresource: boolean, records?: CompactRecords): KubeObject {
  const old = stored.metadata;
  const meta: MutableMeta = { name: old.name };
  if (old.namespace !== undefined) meta.namespace = old.namespace;
  meta.uid = old.uid;
  meta.resourceVersion = rv;
  if (old.generation !== undefined) meta.generation = old.generation;
  meta.creationTimestamp = old.creationTimestamp;
  if (old.deletionTimestamp !== undefined) meta.deletionTimestamp = old.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  copyClientMeta(obj.metadata, meta);
  const next = withBody(obj, meta, statusSubresource ? 'stored' : 'client', stored);
  // Generation counts changes to the desired state: metadata never, status not when it is a subresource.
  if (old.generation !== undefined && bodyChanged(stored, next, statusSubresource)) meta.generation = old.generation + 1;
  // next is this function's own, not yet frozen: the compact record replaces meta in place.
  (next as Record<string, unknown>).metadata = compactMeta(meta, records);
  return next;
}

/** statusUpdatedObject builds a /status write: only .status comes from obj. */
export function statusUpdatedObject(stored: KubeObject, obj: KubeObject, rv: string): KubeObject {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(stored)) {
    if (key === 'metadata') out.metadata = { ...stored.metadata, resourceVersion: rv };
    else if (key !== 'status') out[key] = stored[key];
  }
  if (obj.status !== undefined) out.status = obj.status;
  return out as KubeObject;
}

/** deletingObject marks stored as being deleted (finalizers still pending). */
export function deletingObject(stored: KubeObject, timestamp: string, rv: string): KubeObject {
  const meta: ObjectMeta = {
    ...stored.metadata,
    resourceVersion: rv,
    deletionTimestamp: stored.metadata.deletionTimestamp ?? timestamp,
    deletionGracePeriodSeconds: 0,
  };
  return { ...stored, metadata: meta };
}

/** isMarkedForDeletion tells whether a delete would change nothing on an already-marked object. */
export function isMarkedForDeletion(stored: KubeObject): boolean {
  return stored.metadata.deletionTimestamp !== undefined && stored.metadata.deletionGracePeriodSeconds === 0;
}

/** withResourceVersion copies obj with a new resourceVersion (the final state of a deleted object). */
export function withResourceVersion(obj: KubeObject, rv: string): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: rv } };
}

/** sameExceptVersion tells whether a candidate equals the stored object apart from resourceVersion. */
export function sameExceptVersion(next: KubeObject, stored: KubeObject): boolean {
  if (bodyChanged(stored, next, false)) return false;
  const a = next.metadata as MutableMeta;
  const b = stored.metadata as MutableMeta;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => key === 'resourceVersion' || (Object.hasOwn(b, key) && jsonEqual(a[key], b[key])));
}

/** hasFinalizers tells whether an object still waits for finalizers. */
export function hasFinalizers(obj: KubeObject): boolean {
  return (obj.metadata.finalizers?.length ?? 0) > 0;
}

/**
 * compactMeta lays out a finished metadata record, its labels and its annotations compactly (see
 * apimachinery/compact-records.ts): a store keeps them as long as the object. Values are kept by
 * reference, so only the layout changes.
 */
function compactMeta(meta: MutableMeta, records: CompactRecords | undefined): MutableMeta {
  if (records === undefined) return meta;
  if (isPlainObject(meta.labels)) meta.labels = records.compact(meta.labels);
  if (isPlainObject(meta.annotations)) meta.annotations = records.compact(meta.annotations);
  return records.compact(meta);
}

function copyClientMeta(from: ObjectMeta | undefined, to: MutableMeta): void {
  if (from === undefined) return;
  for (const key of Object.keys(from)) {
    if (!SYSTEM_METADATA.has(key) && from[key] !== undefined) to[key] = from[key];
  }
}

/**
 * withBody copies obj's top level around meta. status: 'client' keeps obj's, 'drop' omits it,
 * 'stored' takes the stored object's (the main resource cannot write a status subresource).
 */
function withBody(obj: KubeObject, meta: MutableMeta, status: 'client' | 'drop' | 'stored', stored: KubeObject | undefined): KubeObject {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    if (key === 'metadata') out.metadata = meta;
    else if (obj[key] === undefined) continue;
    else if (key !== 'status') out[key] = obj[key];
    else if (status === 'client') out.status = obj.status;
  }
  if (out.metadata === undefined) out.metadata = meta;
  const storedStatus = stored?.status;
  if (status === 'stored' && storedStatus !== undefined) out.status = storedStatus;
  return out as KubeObject;
}

/** bodyChanged compares everything outside metadata (and outside status when skipStatus). */
function bodyChanged(a: KubeObject, b: KubeObject, skipStatus: boolean): boolean {
  const skip = (key: string): boolean => key === 'metadata' || (skipStatus && key === 'status');
  const aKeys = Object.keys(a).filter((key) => !skip(key));
  const bKeys = Object.keys(b).filter((key) => !skip(key));
  if (aKeys.length !== bKeys.length) return true;
  return aKeys.some((key) => !Object.hasOwn(b, key) || !jsonEqual(a[key], b[key]));
}
