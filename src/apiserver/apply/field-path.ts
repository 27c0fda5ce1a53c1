// Field paths as server-side apply names them. A path is a list of elements, each encoded the way
// FieldsV1 keys are: `f:<field>` for a map field, `k:<json>` for a list item picked by its key
// fields, `v:<json>` for an item of a set (picked by its value) and `i:<n>` for an item picked by
// its position. Keeping the encoded form as the element avoids a second representation: the same
// string is the FieldsV1 key, the identity in a set, and (rendered) the path in a conflict message.

import { jsonEqual } from '../../apimachinery/deep-equal.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';

/** FieldPath is a path from the object's root, one encoded FieldsV1 element per step. */
export type FieldPath = readonly string[];

/** fieldElement names a map field. */
export function fieldElement(name: string): string {
  return `f:${name}`;
}

/**
 * keyElement names a list item by its key fields. The key fields are written sorted by name and
 * without spaces, as kube writes them, so that equal keys always encode to the same string.
 */
export function keyElement(item: Readonly<Record<string, unknown>>, keys: readonly string[]): string {
  const sorted: Record<string, unknown> = {};
  for (const key of [...keys].sort()) sorted[key] = item[key];
  return `k:${JSON.stringify(sorted)}`;
}

/** valueElement names an item of a set by its (scalar) value. */
export function valueElement(value: unknown): string {
  return `v:${JSON.stringify(value)}`;
}

/** isItemElement tells whether an element picks a list item (as opposed to a map field). */
export function isItemElement(element: string): boolean {
  return element.startsWith('k:') || element.startsWith('v:') || element.startsWith('i:');
}

/**
 * childAt follows one element from a value; undefined when it is not there. A malformed element
 * (say, from a client's hand-written managedFields) simply finds nothing.
 */
export function childAt(value: unknown, element: string): unknown {
  return indexAt(value, element) === undefined ? undefined : pick(value, element);
}

/**
 * indexAt gives where an element sits in a value: the field name in a map, or the index of the
 * item in a list; undefined when it is not there.
 */
export function indexAt(value: unknown, element: string): string | number | undefined {
  const kind = element.slice(0, 2);
  const rest = element.slice(2);
  if (kind === 'f:') return isPlainObject(value) && Object.hasOwn(value, rest) ? rest : undefined;
  if (!Array.isArray(value)) return undefined;
  if (kind === 'i:') {
    const index = Number(rest);
    return Number.isInteger(index) && index >= 0 && index < value.length ? index : undefined;
  }
  const wanted = parseJson(rest);
  if (wanted === undefined) return undefined;
  const found = value.findIndex((item) => (kind === 'v:' ? jsonEqual(item, wanted) : kind === 'k:' && keyMatches(item, wanted)));
  return found < 0 ? undefined : found;
}

/** valueAt follows a whole path; undefined when any step is missing. */
export function valueAt(root: unknown, path: FieldPath): unknown {
  let value = root;
  for (const element of path) {
    value = childAt(value, element);
    if (value === undefined) return undefined;
  }
  return value;
}

/**
 * pathString renders a path as kube prints it in conflicts: `.spec.replicas`,
 * `.metadata.ownerReferences[uid="1"]`, `.metadata.finalizers[="a"]`, `.spec.list[0]`.
 */
export function pathString(path: FieldPath): string {
  let out = '';
  for (const element of path) {
    const rest = element.slice(2);
    if (element.startsWith('f:')) out += `.${rest}`;
    else if (element.startsWith('i:')) out += `[${rest}]`;
    else if (element.startsWith('v:')) out += `[=${rest}]`;
    else {
      const key = parseJson(rest);
      const parts = isPlainObject(key) ? Object.entries(key).map(([name, v]) => `${name}=${JSON.stringify(v)}`) : [rest];
      out += `[${parts.join(',')}]`;
    }
  }
  return out;
}

function pick(value: unknown, element: string): unknown {
  const index = indexAt(value, element);
  if (index === undefined) return undefined;
  return typeof index === 'number' ? (value as readonly unknown[])[index] : (value as Record<string, unknown>)[index];
}

function keyMatches(item: unknown, wanted: unknown): boolean {
  if (!isPlainObject(item) || !isPlainObject(wanted)) return false;
  return Object.entries(wanted).every(([name, v]) => jsonEqual(item[name], v));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
