// Walks a parsed JSON value against a GoType and returns the first error Go's encoding/json (as
// Kubernetes uses it, case-sensitive) would report, worded the same way. null is accepted
// anywhere, as Go leaves the zero value. Field paths list JSON field names from the root without
// map keys or list indexes (`spec.finalizers`), after the innermost struct's name, as Go does.

import { goBase64Error } from './go-base64.js';
import type { GoStruct, GoType } from './go-json-type.js';
import { goTypeName } from './go-json-type.js';
import { goTimeError } from './go-time.js';
import { isPlainObject } from './object-meta.js';

interface Where {
  /** struct is the name of the innermost struct being decoded ('' at the top). */
  readonly struct: string;
  readonly fields: readonly string[];
}

const INT_LIMITS = { 32: 2 ** 31, 64: 2 ** 63 } as const;

/** goDecodeError returns Go's decode error for value as a root of type root, or undefined when it decodes. */
export function goDecodeError(value: unknown, root: GoStruct): string | undefined {
  return check(value, root, { struct: '', fields: [] });
}

function check(value: unknown, type: GoType, where: Where): string | undefined {
  if (value === null) return undefined;
  switch (type.kind) {
    case 'raw': return undefined;
    case 'string': return typeof value === 'string' ? undefined : mismatch(value, type, where);
    case 'bool': return typeof value === 'boolean' ? undefined : mismatch(value, type, where);
    case 'int': return checkInt(value, type, where);
    case 'bytes': return typeof value === 'string' ? goBase64Error(value) : mismatch(value, type, where);
    case 'time': return checkTime(value, where);
    case 'map': return checkMap(value, type, where);
    case 'slice': return checkSlice(value, type, where);
    case 'struct': return checkStruct(value, type, where);
  }
}

function checkInt(value: unknown, type: Extract<GoType, { kind: 'int' }>, where: Where): string | undefined {
  if (typeof value !== 'number') return mismatch(value, type, where);
  const limit = INT_LIMITS[type.bits];
  if (Number.isInteger(value) && value >= -limit && value < limit) return undefined;
  // Go names the offending literal for numbers that do not fit: `number 1.5`.
  return typeError(`number ${String(value)}`, goTypeName(type), where);
}

// metav1.Time decodes itself: a non-string fails its inner json.Unmarshal into a string.
function checkTime(value: unknown, where: Where): string | undefined {
  if (typeof value !== 'string') return typeError(jsonKind(value), 'string', where);
  return goTimeError(value);
}

function checkMap(value: unknown, type: Extract<GoType, { kind: 'map' }>, where: Where): string | undefined {
  if (!isPlainObject(value)) return mismatch(value, type, where);
  for (const entry of Object.values(value)) {
    const error = check(entry, type.of, where);
    if (error !== undefined) return error;
  }
  return undefined;
}

function checkSlice(value: unknown, type: Extract<GoType, { kind: 'slice' }>, where: Where): string | undefined {
  if (!Array.isArray(value)) return mismatch(value, type, where);
  for (const item of value) {
    const error = check(item, type.of, where);
    if (error !== undefined) return error;
  }
  return undefined;
}

function checkStruct(value: unknown, type: GoStruct, where: Where): string | undefined {
  if (!isPlainObject(value)) return mismatch(value, type, where);
  // In document order, as Go reports the first mismatch it meets.
  for (const [name, field] of Object.entries(value)) {
    if (!Object.hasOwn(type.fields, name)) continue;
    const error = check(field, type.fields[name] as GoType, { struct: type.name, fields: [...where.fields, name] });
    if (error !== undefined) return error;
  }
  return undefined;
}

function mismatch(value: unknown, type: GoType, where: Where): string {
  return typeError(jsonKind(value), goTypeName(type), where);
}

function typeError(valueKind: string, typeName: string, where: Where): string {
  if (where.fields.length === 0) return `json: cannot unmarshal ${valueKind} into Go value of type ${typeName}`;
  return `json: cannot unmarshal ${valueKind} into Go struct field ${where.struct}.${where.fields.join('.')} of type ${typeName}`;
}

/** jsonKind names a JSON value as Go's decoder does: object, array, string, number, bool. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  return 'object';
}
