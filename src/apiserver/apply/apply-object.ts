// The apply algorithm, free of HTTP and storage: merge the applied configuration into the live
// object, refuse (or, forced, take over) fields other managers own with another value, remove
// what the applier owned last time and no longer sends unless someone else still owns it, and
// record the applier's new ownership in metadata.managedFields.

import { jsonEqual } from '../../apimachinery/deep-equal.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { conflictError, findConflicts } from './conflicts.js';
import type { FieldPath } from './field-path.js';
import { FieldSet } from './field-set.js';
import { fieldsOf } from './fields-of.js';
import type { ListTypes } from './list-types.js';
import type { ManagedEntry } from './managed-fields.js';
import { readManagedFields, sameOwner, writeManagedFields } from './managed-fields.js';
import { mergeApplied } from './merge-applied.js';
import { removeFields } from './remove-fields.js';

/** ApplyInput is one apply request, its body already parsed and checked. */
export interface ApplyInput {
  /** live is the stored object; undefined when the apply creates it. */
  readonly live: KubeObject | undefined;
  /** applied is the applied configuration (type meta filled, nulls dropped, no managedFields). */
  readonly applied: Readonly<Record<string, unknown>>;
  readonly manager: string;
  readonly force: boolean;
  /** apiVersion is recorded in the applier's entry. */
  readonly apiVersion: string;
  readonly listTypes: ListTypes;
  /** now is the entry time, RFC 3339 in seconds. */
  readonly now: string;
}

/** ApplyResult is the object to store, or unchanged when the apply changes nothing at all. */
export type ApplyResult = { readonly unchanged: true } | { readonly unchanged: false; readonly object: Record<string, unknown> & { metadata: Record<string, unknown> } };

/** applyToObject runs one apply; conflicts (without force) throw kube's 409 Status. */
export function applyToObject(input: ApplyInput): ApplyResult {
  const { live, applied, manager, listTypes } = input;
  const applierKey = { manager, operation: 'Apply' as const };
  const isApplier = (entry: ManagedEntry): boolean => sameOwner(entry, applierKey);
  const appliedSet = fieldsOf(applied, listTypes);
  const entries = live === undefined ? [] : readManagedFields(live.metadata);
  const merged = mergeApplied(live ?? {}, applied, listTypes) as Record<string, unknown>;

  const conflicts = findConflicts(live, merged, appliedSet, entries, isApplier);
  if (conflicts.length > 0 && !input.force) throw conflictError(conflicts);
  // Forced: each owner loses exactly the fields it conflicted on; shared equal values stay shared.
  const others = entries.filter((entry) => !isApplier(entry)).map((entry) => {
    const lost = new FieldSet(conflicts.filter((c) => c.owner === entry).map((c) => c.path));
    return lost.size === 0 ? entry : { ...entry, fields: entry.fields.difference(lost) };
  });

  const previous = entries.find(isApplier);
  const stillOwned = others.reduce((set, entry) => set.union(entry.fields), appliedSet);
  const removed = removablePaths(previous?.fields ?? new FieldSet(), appliedSet, stillOwned);
  const object = removeFields(merged, removed) as Record<string, unknown> & { metadata: Record<string, unknown> };

  const mine: ManagedEntry = { manager, operation: 'Apply', apiVersion: input.apiVersion, time: input.now, fields: appliedSet };
  const next = placeEntry(entries.map((entry) => others.find((o) => sameOwner(o, entry)) ?? entry), mine);
  if (live !== undefined && unchanged(live, object, entries, next)) return { unchanged: true };
  object.metadata = { ...object.metadata, managedFields: writeManagedFields(next) };
  return { unchanged: false, object };
}

/**
 * removablePaths: what the applier owned last time and no longer applies, unless it (or
 * anything under it) is still owned by someone, the applier's new set included.
 */
function removablePaths(previous: FieldSet, applied: FieldSet, stillOwned: FieldSet): FieldPath[] {
  return previous.difference(applied).paths().filter((path) => !stillOwned.hasAtOrBelow(path));
}

/** placeEntry puts the applier's entry where its old one was (kube keeps the order), else last. */
function placeEntry(entries: readonly ManagedEntry[], mine: ManagedEntry): ManagedEntry[] {
  const at = entries.findIndex((entry) => sameOwner(entry, mine));
  if (at < 0) return [...entries, mine];
  return entries.map((entry, i) => (i === at ? mine : entry));
}

/**
 * unchanged: the apply changes neither the object nor anyone's ownership. Such an apply stores
 * nothing (not even a new time), so a repeated apply does not bump the resourceVersion.
 */
function unchanged(live: KubeObject, object: Readonly<Record<string, unknown>>, before: readonly ManagedEntry[], after: readonly ManagedEntry[]): boolean {
  const strip = (o: Readonly<Record<string, unknown>>): unknown => {
    const metadata = { ...(o['metadata'] as Record<string, unknown>) };
    delete metadata['managedFields'];
    return { ...o, metadata };
  };
  if (!jsonEqual(strip(live), strip(object))) return false;
  const kept = (entries: readonly ManagedEntry[]): ManagedEntry[] => entries.filter((e) => e.fields.size > 0);
  const [a, b] = [kept(before), kept(after)];
  return a.length === b.length && a.every((entry, i) => {
    const other = b[i];
    return other !== undefined && sameOwner(entry, other) && entry.fields.equals(other.fields) && entry.apiVersion === other.apiVersion;
  });
}
