// How server-side apply treats each list of the kinds served here. Kube reads this from each
// type's OpenAPI schema (x-kubernetes-list-type / list-map-keys, or the patch merge key); this
// server has no such schemas, so the few lists that matter are listed by hand. Every other list
// is atomic, as kube treats the lists of an untyped (schemaless) object: the applier's list
// replaces the whole list and is owned as a whole. Maps are always merged key by key.

/** ListType says how the items of one list are identified and merged. */
export type ListType =
  | { readonly type: 'atomic' }
  | { readonly type: 'set' }
  | { readonly type: 'map'; readonly keys: readonly string[] };

/** ListTypes answers the list type at a path of field names (list items are written `[]`). */
export type ListTypes = (fieldNames: readonly string[]) => ListType;

const ATOMIC: ListType = { type: 'atomic' };
const SET: ListType = { type: 'set' };

/**
 * Lists every kind has: kube gives custom resources the typed ObjectMeta too, so these hold for
 * them as well. managedFields is not listed: it is bookkeeping, never owned by anyone.
 */
const METADATA_LISTS: Readonly<Record<string, ListType>> = {
  'metadata.finalizers': SET,
  'metadata.ownerReferences': { type: 'map', keys: ['uid'] },
};

/** Lists of particular built-in kinds, by `<group>/<kind>` (core group: empty). */
const KIND_LISTS: Readonly<Record<string, Readonly<Record<string, ListType>>>> = {
  '/Namespace': { 'spec.finalizers': SET },
};

/** listTypesFor gives the list table of one kind. */
export function listTypesFor(group: string, kind: string): ListTypes {
  const own = KIND_LISTS[`${group}/${kind}`] ?? {};
  return (fieldNames) => {
    const key = fieldNames.join('.');
    return own[key] ?? METADATA_LISTS[key] ?? ATOMIC;
  };
}

/**
 * usableListType checks that a list's items fit its declared type, else treats it as atomic:
 * keyed items must be objects carrying every key, set items scalars, both without duplicates.
 * Kube refuses such a list outright; here the list is still stored, just owned as a whole,
 * which keeps a malformed write from failing in the bookkeeping instead of in validation.
 */
export function usableListType(items: readonly unknown[], declared: ListType): ListType {
  if (declared.type === 'atomic') return declared;
  const seen = new Set<string>();
  for (const item of items) {
    let identity: string;
    if (declared.type === 'set') {
      if (item === null || typeof item === 'object') return ATOMIC;
      identity = JSON.stringify(item);
    } else {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return ATOMIC;
      const record = item as Record<string, unknown>;
      if (declared.keys.some((key) => record[key] === undefined || record[key] === null)) return ATOMIC;
      identity = JSON.stringify(declared.keys.map((key) => record[key]));
    }
    if (seen.has(identity)) return ATOMIC;
    seen.add(identity);
  }
  return declared;
}
