// Ownership recorded by ordinary writes (create, update, merge/JSON/strategic patch): the writer's
// `Update` entry gains the fields whose value it set or changed and loses the ones it removed,
// and every other manager loses the fields it changed (an update never conflicts; it takes over).
// That is how a later apply sees what a `kubectl edit` or a controller's update now owns.

import { jsonEqual } from '../../apimachinery/deep-equal.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { valueAt } from './field-path.js';
import { FieldSet } from './field-set.js';
import { fieldsOf } from './fields-of.js';
import type { ListTypes } from './list-types.js';
import type { ManagedEntry } from './managed-fields.js';
import { readManagedFields, sameOwner, writeManagedFields } from './managed-fields.js';

/** UpdateInput is one ordinary write about to be stored. */
export interface UpdateInput {
  /** old is the stored object; undefined for a create. */
  readonly old: KubeObject | undefined;
  /** next is the object to store; its metadata.managedFields is rewritten in place. */
  readonly next: Record<string, unknown> & { metadata: Record<string, unknown> };
  readonly manager: string;
  readonly apiVersion: string;
  readonly listTypes: ListTypes;
  readonly now: string;
  /** ignoreStatus: the write cannot change status (a main resource with a status subresource). */
  readonly ignoreStatus: boolean;
}

/** recordUpdate sets next's metadata.managedFields for an ordinary write. */
export function recordUpdate(input: UpdateInput): void {
  const { old, next, manager, listTypes } = input;
  // A body without managedFields keeps the stored ones, as kube does; one with them (even
  // empty, which resets them) is taken as sent.
  const sent = next.metadata['managedFields'];
  const entries = sent === undefined || sent === null ? (old === undefined ? [] : readManagedFields(old.metadata)) : readManagedFields(next.metadata);
  const view = (obj: Readonly<Record<string, unknown>> | undefined): Readonly<Record<string, unknown>> | undefined => {
    if (obj === undefined || !input.ignoreStatus) return obj;
    const { status: _status, ...rest } = obj;
    return rest;
  };
  const before = view(old);
  const after = view(next) ?? {};
  const oldSet = before === undefined ? new FieldSet() : fieldsOf(before, listTypes);
  const newSet = fieldsOf(after, listTypes);
  const changed = new FieldSet(newSet.paths().filter((path) => !oldSet.has(path) || !jsonEqual(valueAt(before, path), valueAt(after, path))));
  const removed = oldSet.difference(newSet);
  if (changed.size === 0 && removed.size === 0) {
    // Nothing changed hands: keep the entries exactly as they were (same times, same order).
    if ((sent === undefined || sent === null) && old?.metadata['managedFields'] !== undefined) next.metadata['managedFields'] = old.metadata['managedFields'];
    return;
  }
  const key = { manager, operation: 'Update' as const };
  const updated = entries.map((entry) => (sameOwner(entry, key) ? entry : { ...entry, fields: entry.fields.difference(changed) }));
  const previous = entries.find((entry) => sameOwner(entry, key));
  const mine: ManagedEntry = {
    manager, operation: 'Update', apiVersion: input.apiVersion, time: input.now,
    fields: (previous?.fields ?? new FieldSet()).union(changed).difference(removed),
  };
  const at = updated.findIndex((entry) => sameOwner(entry, key));
  const result = at < 0 ? [...updated, mine] : updated.map((entry, i) => (i === at ? mine : entry));
  const written = writeManagedFields(result);
  if (written.length > 0) next.metadata['managedFields'] = written;
  else delete next.metadata['managedFields'];
}
