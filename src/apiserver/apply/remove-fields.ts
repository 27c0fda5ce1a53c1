// Taking fields out of an object: what an applier stopped sending and no one else owns.

import type { FieldPath } from './field-path.js';
import { childAt, indexAt } from './field-path.js';

/**
 * removeFields returns a copy of obj without the given paths. Paths are looked up by key or value
 * at the moment they are removed, so removing several items of one list is order-independent; a
 * path already gone (or under something removed) is skipped.
 */
export function removeFields<T>(obj: T, paths: readonly FieldPath[]): T {
  if (paths.length === 0) return obj;
  const copy = structuredClone(obj);
  for (const path of paths) removeOne(copy, path);
  return copy;
}

function removeOne(root: unknown, path: FieldPath): void {
  const last = path[path.length - 1];
  if (last === undefined) return;
  let parent = root;
  for (const element of path.slice(0, -1)) {
    parent = childAt(parent, element);
    if (parent === undefined) return;
  }
  const index = indexAt(parent, last);
  if (typeof index === 'number') (parent as unknown[]).splice(index, 1);
  else if (index !== undefined) delete (parent as Record<string, unknown>)[index];
}
