// The level-based reconcile of one source object: read the source object and its copy now, and
// make the copy match. The cases, as the tests number them:
//   case 1: the source object is absent                          → delete the copy (if any)
//   case 2: the source object is deleting with no finalizers left → delete the copy
//   case 3: the source object no longer matches the selector     → delete the copy
//   case 4: the copy exists and equals what it should be         → nothing
//   case 5: there is no copy                                     → create it
//   case 6: the copy differs (source changed, or someone edited it) → update it
// "Equals" compares labels, annotations and spec.raw, not only original-resource-version, so a
// copy that anyone else edited is repaired.

import type { KubeObject } from '../../apimachinery/object-meta.js';
import type { LabelSelector } from '../../apimachinery/selector.js';

/** ReplicationDeps are the closures a reconcile reads and writes through; writes name the source object they are for. */
export interface ReplicationDeps {
  readonly getSource: (namespace: string, name: string) => KubeObject | undefined;
  /** getCopy reads what this process holds, synchronously: a reconcile awaits only its write. */
  readonly getCopy: (namespace: string, name: string) => KubeObject | undefined;
  readonly selector: () => LabelSelector;
  /** desiredCopy wraps a source object; existing is the current copy, whose name it keeps. */
  readonly desiredCopy: (source: KubeObject, existing: KubeObject | undefined) => KubeObject;
  readonly isUpToDate: (existing: KubeObject, desired: KubeObject) => boolean;
  readonly createCopy: (copy: KubeObject, namespace: string, name: string) => Promise<void>;
  readonly updateCopy: (copy: KubeObject, existing: KubeObject, namespace: string, name: string) => Promise<void>;
  readonly deleteCopy: (existing: KubeObject, namespace: string, name: string) => Promise<void>;
}

/** ReplicationOutcome says which case applied, for logs, metrics and tests. */
export type ReplicationOutcome = 'deleted' | 'absent' | 'unchanged' | 'created' | 'updated';

/** reconcileReplication makes the copy of source object namespace/name match it. */
export async function reconcileReplication(deps: ReplicationDeps, namespace: string, name: string): Promise<ReplicationOutcome> {
  const source = deps.getSource(namespace, name);
  const copy = deps.getCopy(namespace, name);
  if (!shouldReplicate(source, deps.selector())) {
    if (copy === undefined) return 'absent';
    await deps.deleteCopy(copy, namespace, name);
    return 'deleted';
  }
  const desired = deps.desiredCopy(source, copy);
  if (copy === undefined) {
    await deps.createCopy(desired, namespace, name);
    return 'created';
  }
  if (deps.isUpToDate(copy, desired)) return 'unchanged';
  await deps.updateCopy(desired, copy, namespace, name);
  return 'updated';
}

/** shouldReplicate covers cases 1–3: present, not finally deleted, selected. */
export function shouldReplicate(source: KubeObject | undefined, selector: LabelSelector): source is KubeObject {
  if (source === undefined) return false;
  const meta = source.metadata;
  if (meta.deletionTimestamp !== undefined && (meta.finalizers ?? []).length === 0) return false;
  return selector.matches(meta.labels);
}
