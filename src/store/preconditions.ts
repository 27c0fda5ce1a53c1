// Delete preconditions: the uid and resourceVersion a client requires of the stored object.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { conflict } from './store-errors.js';
import type { ObjectKey, Preconditions } from './store.js';

/** checkPreconditions throws Conflict, worded as kube-apiserver words it, when a precondition does not hold. */
export function checkPreconditions(key: ObjectKey, stored: KubeObject, pre: Preconditions | undefined): void {
  const meta = stored.metadata;
  if (pre?.uid !== undefined && pre.uid !== meta.uid) {
    throw conflict(key.group, key.resource, key.name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    const why = `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`;
    throw conflict(key.group, key.resource, key.name, why);
  }
}
