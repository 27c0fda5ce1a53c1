// The set of fields an object (or an applied configuration) sets, as server-side apply counts
// them: every scalar leaf, every atomic list as one field, each item of a set (`v:`), each item of
// a keyed list (`k:`, the item itself plus its fields). A map is never a field of its own: owning
// `.metadata.labels.app` does not own `.metadata.labels`, so two managers can share a map.

import { isPlainObject } from '../../apimachinery/object-meta.js';
import type { FieldPath } from './field-path.js';
import { fieldElement, keyElement, valueElement } from './field-path.js';
import { FieldSet } from './field-set.js';
import type { ListTypes } from './list-types.js';
import { usableListType } from './list-types.js';

/**
 * Fields nobody owns: identity and server-set metadata, and the bookkeeping itself. kube strips
 * the same ones (deletion marks are server-set here too, so they are left out as well).
 */
const UNOWNED: readonly string[] = [
  'apiVersion', 'kind', 'metadata.name', 'metadata.namespace', 'metadata.creationTimestamp', 'metadata.selfLink',
  'metadata.uid', 'metadata.generation', 'metadata.managedFields', 'metadata.resourceVersion',
  'metadata.deletionTimestamp', 'metadata.deletionGracePeriodSeconds',
];

/** isUnowned tells whether a top-level or metadata field is outside field ownership. */
export function isUnowned(fieldNames: readonly string[]): boolean {
  return UNOWNED.includes(fieldNames.join('.'));
}

/** fieldsOf lists the fields an object sets. */
export function fieldsOf(obj: unknown, listTypes: ListTypes): FieldSet {
  const set = new FieldSet();
  walk(obj, [], [], listTypes, set);
  return set;
}

function walk(value: unknown, path: FieldPath, names: readonly string[], listTypes: ListTypes, set: FieldSet): void {
  if (isPlainObject(value)) {
    for (const [name, child] of Object.entries(value)) {
      const childNames = [...names, name];
      if (isUnowned(childNames)) continue;
      walk(child, [...path, fieldElement(name)], childNames, listTypes, set);
    }
    return;
  }
  if (!Array.isArray(value)) {
    set.add(path);
    return;
  }
  const listType = usableListType(value, listTypes(names));
  if (listType.type === 'atomic') {
    set.add(path);
    return;
  }
  for (const item of value) {
    if (listType.type === 'set') {
      set.add([...path, valueElement(item)]);
      continue;
    }
    const itemPath = [...path, keyElement(item as Record<string, unknown>, listType.keys)];
    set.add(itemPath);
    walk(item, itemPath, [...names, '[]'], listTypes, set);
  }
}
