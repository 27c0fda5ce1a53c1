// Validation of the list-valued parts of object metadata, as Kubernetes' ValidateObjectMeta does
// them: finalizers, ownerReferences and managedFields. The field paths are Kubernetes' own; note
// that finalizer and owner reference errors name the list, not an index.

import type { StatusCause } from '../errors.js';
import { fieldCause, forbiddenCause, goStringList, invalidCause, tooLongCause } from './field-causes.js';
import { isQualifiedName } from './name-validation.js';
import { isPlainObject } from './object-meta.js';

const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';
/** FIELD_MANAGER_MAX_BYTES bounds managedFields[].manager, as Kubernetes' FieldManagerMaxLength. */
export const FIELD_MANAGER_MAX_BYTES = 128;
/** SUBRESOURCE_MAX_BYTES bounds managedFields[].subresource, as Kubernetes' MaxSubresourceNameLength. */
export const SUBRESOURCE_MAX_BYTES = 256;

/** validateFinalizers checks each finalizer is a qualified name and that orphan and foregroundDeletion are not both set. */
export function validateFinalizers(finalizers: readonly string[], field = 'metadata.finalizers'): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const finalizer of finalizers) {
    for (const message of isQualifiedName(finalizer)) causes.push(invalidCause(field, finalizer, message));
  }
  if (finalizers.includes(ORPHAN) && finalizers.includes(FOREGROUND)) {
    causes.push(fieldCause('FieldValueInvalid', field, `Invalid value: ${goStringList(finalizers)}: finalizer ${ORPHAN} and ${FOREGROUND} cannot be both set`));
  }
  return causes;
}

/** validateNoNewFinalizers refuses finalizers added to an object already being deleted. */
export function validateNoNewFinalizers(next: readonly string[], old: readonly string[]): StatusCause[] {
  const added = [...new Set(next.filter((finalizer) => !old.includes(finalizer)))].sort();
  if (added.length === 0) return [];
  return [forbiddenCause('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringList(added)}`)];
}

/** validateOwnerReferences checks each reference names an owner, and that at most one is the controller. */
export function validateOwnerReferences(refs: readonly Record<string, unknown>[]): StatusCause[] {
  const field = 'metadata.ownerReferences';
  const causes: StatusCause[] = [];
  let controller = '';
  for (const ref of refs) {
    causes.push(...ownerReferenceCauses(ref, field));
    if (ref['controller'] !== true) continue;
    const name = `${str(ref['kind'])}/${str(ref['name'])}`;
    if (controller === '') controller = name;
    else causes.push(invalidCause(field, refs, `Only one reference can have Controller set to true. Found "true" in references for ${controller} and ${name}`));
  }
  return causes;
}

function ownerReferenceCauses(ref: Record<string, unknown>, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const apiVersion = str(ref['apiVersion']);
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  const kind = str(ref['kind']);
  if (version === '') causes.push(invalidCause(`${field}.apiVersion`, apiVersion, 'version must not be empty'));
  if (kind === '') causes.push(invalidCause(`${field}.kind`, kind, 'must not be empty'));
  if (str(ref['name']) === '') causes.push(invalidCause(`${field}.name`, str(ref['name']), 'must not be empty'));
  if (str(ref['uid']) === '') causes.push(invalidCause(`${field}.uid`, str(ref['uid']), 'must not be empty'));
  // Events may not own anything: their garbage collection would take the dependents with them.
  if (group === '' && version === 'v1' && kind === 'Event') causes.push(invalidCause(field, ref, '/v1, Kind=Event is disallowed from being an owner'));
  return causes;
}

/** validateManagedFields checks the server-side-apply bookkeeping entries a client sent. */
export function validateManagedFields(entries: readonly unknown[]): StatusCause[] {
  const causes: StatusCause[] = [];
  entries.forEach((entry, i) => {
    const field = `metadata.managedFields[${i}]`;
    const fields = isPlainObject(entry) ? entry : {};
    const operation = str(fields['operation']);
    if (operation !== 'Apply' && operation !== 'Update') causes.push(invalidCause(`${field}.operation`, operation, 'must be `Apply` or `Update`'));
    const fieldsType = str(fields['fieldsType']);
    if (fieldsType !== '' && fieldsType !== 'FieldsV1') causes.push(invalidCause(`${field}.fieldsType`, fieldsType, 'must be `FieldsV1`'));
    causes.push(...fieldManagerCauses(str(fields['manager']), `${field}.manager`));
    if (Buffer.byteLength(str(fields['subresource'])) > SUBRESOURCE_MAX_BYTES) causes.push(tooLongCause(`${field}.subresource`, SUBRESOURCE_MAX_BYTES));
  });
  return causes;
}

// A field manager is at most 128 bytes of printable characters; positions are byte offsets, as in Go.
function fieldManagerCauses(manager: string, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX_BYTES) causes.push(tooLongCause(field, FIELD_MANAGER_MAX_BYTES));
  let position = 0;
  for (const char of manager) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(char)) {
      const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      causes.push(invalidCause(field, manager, `invalid character U+${code} (at position ${position})`));
    }
    position += Buffer.byteLength(char);
  }
  return causes;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
