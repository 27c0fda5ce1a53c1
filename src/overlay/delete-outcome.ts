// A successful DELETE does not always remove the object: with finalizers pending, or a graceful
// deletion under way (pods), the source only marks it with a deletionTimestamp and returns it.
// Recording a tombstone then would hide an object that still exists, so the write service
// records the response as an upsert instead, and readers see the deletionTimestamp at once.

import { isPlainObject } from '../apimachinery/object-meta.js';
import type { KubeObject } from '../apimachinery/object-meta.js';

/** survivesDelete tells whether a delete response is the object still in place (deletion pending). */
export function survivesDelete(response: unknown): response is KubeObject {
  if (!isPlainObject(response) || !isPlainObject(response.metadata)) return false;
  const meta = response.metadata;
  if (typeof meta.deletionTimestamp !== 'string' || meta.deletionTimestamp === '') return false;
  const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers.length : 0;
  const grace = typeof meta.deletionGracePeriodSeconds === 'number' ? meta.deletionGracePeriodSeconds : 0;
  return finalizers > 0 || grace > 0;
}
