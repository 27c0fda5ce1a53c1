// How a write maps onto what the source and the overlay take: its target's resource, overlay key
// and lock key, the body sent to the source, and the result built from the source's answer.

import { AppError } from '../errors.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { overlayKeyString } from '../overlay/overlay-key.js';
import type { OverlayKey } from '../overlay/overlay-key.js';
import type { WriteResult, WriteTarget } from './write-service.js';

/** gvrOf is the target's resource as client-node names it (the core group is `''`). */
export function gvrOf(target: WriteTarget): GroupVersionResource {
  return { group: target.group === 'core' ? '' : target.group, version: target.version, resource: target.resource };
}

/** keyOf is the overlay key of one object of a write. */
export function keyOf(shard: string, cluster: string, gvr: GroupVersionResource, namespace: string, name: string): OverlayKey {
  return { shard, cluster, group: gvr.group, resource: gvr.resource, namespace, name };
}

/** lockKey is the key a write locks, so one object's source call and recording run one at a time. */
export function lockKey(shard: string, target: WriteTarget, namespace: string | undefined, name: string): string {
  return overlayKeyString(keyOf(shard, target.cluster, gvrOf(target), namespace ?? '', name));
}

/** resultOf is the write's answer built from the object the source returned. */
export function resultOf(object: KubeObject, shard: string, cluster: string, gvr: GroupVersionResource): WriteResult {
  return { object, resourceVersion: object.metadata.resourceVersion ?? '', shard, cluster, resource: { group: gvr.group, resource: gvr.resource } };
}

/** isObject: the answer is an object rather than a Status (a delete answers either). */
export function isObject(response: KubeObject): boolean {
  return response.kind !== 'Status' && typeof response.metadata.uid === 'string' && response.metadata.uid !== '';
}

/** withMeta is the object with these metadata fields set. */
export function withMeta(obj: KubeObject, meta: Record<string, string>): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, ...meta } };
}

/** named: the object of an update carries the target's name; a different name in the body is refused. */
export function named(obj: KubeObject, name: string): KubeObject {
  const own = obj.metadata.name;
  if (own !== undefined && own !== '' && own !== name) {
    throw new AppError('BadRequest', `the name in the body ("${own}") does not match the name in the path ("${name}")`, {
      causes: [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `must be "${name}"` }],
    });
  }
  return own === name ? obj : withMeta(obj, { name });
}
