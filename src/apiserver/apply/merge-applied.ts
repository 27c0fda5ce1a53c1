// Merging an applied configuration into the live object, the first half of an apply (removal of
// what the applier stopped sending is the second, see remove-fields.ts). The live object is
// never changed: touched maps and lists are copied, untouched subtrees are shared.

import { jsonEqual } from '../../apimachinery/deep-equal.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';
import type { ListTypes } from './list-types.js';
import { usableListType } from './list-types.js';

/**
 * mergeApplied merges applied into live: maps key by key, atomic lists replaced whole, sets
 * united (live order first, new values appended), keyed lists merged item by item (an item
 * in both is merged recursively, live items the applier does not send are kept).
 */
export function mergeApplied(live: unknown, applied: unknown, listTypes: ListTypes, names: readonly string[] = []): unknown {
  if (isPlainObject(applied)) {
    const out: Record<string, unknown> = isPlainObject(live) ? { ...live } : {};
    for (const [name, value] of Object.entries(applied)) {
      Object.defineProperty(out, name, {
        value: mergeApplied(out[name], value, listTypes, [...names, name]),
        enumerable: true, writable: true, configurable: true,
      });
    }
    return out;
  }
  if (!Array.isArray(applied) || !Array.isArray(live)) return applied;
  const declared = listTypes(names);
  const type = usableListType(applied, declared);
  if (type.type === 'atomic' || usableListType(live, declared).type === 'atomic') return applied;
  if (type.type === 'set') return [...live, ...applied.filter((item) => !live.some((old) => jsonEqual(old, item)))];
  const keyOf = (item: unknown): string => JSON.stringify(type.keys.map((key) => (item as Record<string, unknown>)[key]));
  const appliedByKey = new Map(applied.map((item) => [keyOf(item), item] as const));
  const merged = live.map((item) => {
    const match = appliedByKey.get(keyOf(item));
    return match === undefined ? item : mergeApplied(item, match, listTypes, [...names, '[]']);
  });
  const liveKeys = new Set(live.map(keyOf));
  return [...merged, ...applied.filter((item) => !liveKeys.has(keyOf(item)))];
}

/**
 * withoutNulls drops null map values from an applied configuration. Kube treats a null in an
 * apply as "set and owned, with no value"; here it simply means "not sent", which is what the
 * clients that send nulls (defaults serialised as null) mean by it.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    if (child === null) continue;
    Object.defineProperty(out, name, { value: withoutNulls(child), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
