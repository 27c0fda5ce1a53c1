// Which CCR updates the root controller reacts to. Its own status writes come back from the
// informer as updates; reconciling each of them again wrote the status again as soon as the
// counts had moved, about 40 times a second during a long sync instead of the few the counts'
// coalescing allows. As controller-runtime's generation predicates do, an update that changed
// nothing but the status (and the version fields every write changes) is not queued.

import { jsonEqual } from '../../apimachinery/deep-equal.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';

/** METADATA_EVERY_WRITE_CHANGES are the fields that differ after any write, status included. */
const METADATA_EVERY_WRITE_CHANGES = new Set(['resourceVersion', 'managedFields']);

/** isStatusOnlyChange tells whether next differs from previous in status (and write bookkeeping) only. */
export function isStatusOnlyChange(next: KubeObject, previous: KubeObject): boolean {
  for (const field of new Set([...Object.keys(next), ...Object.keys(previous)])) {
    if (field === 'status' || field === 'metadata') continue;
    if (!jsonEqual(next[field], previous[field])) return false;
  }
  const a = next.metadata as Record<string, unknown>;
  const b = previous.metadata as Record<string, unknown>;
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (METADATA_EVERY_WRITE_CHANGES.has(field)) continue;
    if (!jsonEqual(a[field], b[field])) return false;
  }
  return true;
}
