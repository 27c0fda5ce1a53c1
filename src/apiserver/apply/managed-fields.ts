// metadata.managedFields, read into field sets and written back. One entry per manager, operation
// and subresource, as kube keeps them; an entry whose set became empty is dropped.

import { isPlainObject } from '../../apimachinery/object-meta.js';
import { FieldSet } from './field-set.js';

/** ManagedEntry is one metadata.managedFields entry with its fields read. */
export interface ManagedEntry {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly time: string;
  readonly subresource?: string;
  readonly fields: FieldSet;
}

/** sameOwner tells whether two entries are kept as one (same manager, operation and subresource). */
export function sameOwner(a: Pick<ManagedEntry, 'manager' | 'operation' | 'subresource'>, b: Pick<ManagedEntry, 'manager' | 'operation' | 'subresource'>): boolean {
  return a.manager === b.manager && a.operation === b.operation && (a.subresource ?? '') === (b.subresource ?? '');
}

/**
 * readManagedFields reads an object's entries. Validation has already refused malformed ones on
 * the way in; anything still unreadable (an old stored object) is skipped, not fatal.
 */
export function readManagedFields(metadata: Readonly<Record<string, unknown>>): ManagedEntry[] {
  const raw = metadata['managedFields'];
  if (!Array.isArray(raw)) return [];
  const entries: ManagedEntry[] = [];
  for (const item of raw) {
    if (!isPlainObject(item)) continue;
    const { manager, operation, apiVersion, time, subresource, fieldsV1 } = item;
    if (typeof manager !== 'string' || (operation !== 'Apply' && operation !== 'Update')) continue;
    entries.push({
      manager, operation,
      apiVersion: typeof apiVersion === 'string' ? apiVersion : '',
      time: typeof time === 'string' ? time : '',
      ...(typeof subresource === 'string' && subresource !== '' ? { subresource } : {}),
      fields: FieldSet.fromFieldsV1(fieldsV1),
    });
  }
  return entries;
}

/** writeManagedFields renders entries as metadata.managedFields, dropping empty ones. */
export function writeManagedFields(entries: readonly ManagedEntry[]): Array<Record<string, unknown>> {
  return entries.filter((entry) => entry.fields.size > 0).map((entry) => ({
    manager: entry.manager,
    operation: entry.operation,
    apiVersion: entry.apiVersion,
    time: entry.time,
    fieldsType: 'FieldsV1',
    fieldsV1: entry.fields.toFieldsV1(),
    ...(entry.subresource !== undefined ? { subresource: entry.subresource } : {}),
  }));
}
