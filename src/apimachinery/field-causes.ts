// Field-level causes of a 422 Invalid, worded as k8s.io/apimachinery's field.Error renders them
// (Kubernetes v1.32): `Invalid value: "x": <detail>`, `Required value`, `Too long: may not be more
// than 262144 bytes`, `Unsupported value: "x": supported values: "a", "b"`.

import type { StatusCause } from '../errors.js';

/** fieldCause is one cause with its reason, field path and message. */
export function fieldCause(reason: string, field: string, message: string): StatusCause {
  return { reason, message, field };
}

/** invalidCause is field.Invalid: the value is malformed. */
export function invalidCause(field: string, value: unknown, detail: string): StatusCause {
  return fieldCause('FieldValueInvalid', field, `Invalid value: ${formatFieldValue(value)}: ${detail}`);
}

/** typeInvalidCause is field.TypeInvalid: the value has the wrong JSON type for its schema. */
export function typeInvalidCause(field: string, value: unknown, detail: string): StatusCause {
  return fieldCause('FieldValueTypeInvalid', field, `Invalid value: ${formatFieldValue(value)}: ${detail}`);
}

/** requiredCause is field.Required. */
export function requiredCause(field: string, detail = ''): StatusCause {
  return fieldCause('FieldValueRequired', field, detail === '' ? 'Required value' : `Required value: ${detail}`);
}

/** forbiddenCause is field.Forbidden. */
export function forbiddenCause(field: string, detail: string): StatusCause {
  return fieldCause('FieldValueForbidden', field, `Forbidden: ${detail}`);
}

/** tooLongCause is field.TooLong: the value (never shown) passes a byte limit. */
export function tooLongCause(field: string, maxBytes: number): StatusCause {
  return fieldCause('FieldValueTooLong', field, `Too long: may not be more than ${maxBytes} ${maxBytes === 1 ? 'byte' : 'bytes'}`);
}

/** notSupportedCause is field.NotSupported: the value is not one of an enumeration. */
export function notSupportedCause(field: string, value: unknown, supported: readonly string[]): StatusCause {
  const list = supported.map((entry) => JSON.stringify(entry)).join(', ');
  return fieldCause('FieldValueNotSupported', field, `Unsupported value: ${formatFieldValue(value)}${list === '' ? '' : `: supported values: ${list}`}`);
}

/** goStringList shows a string list as Go's %#v does: `[]string{"a", "b"}`. */
export function goStringList(values: readonly string[]): string {
  return `[]string{${values.map((item) => JSON.stringify(item)).join(', ')}}`;
}

/**
 * formatFieldValue shows a bad value as Go does for the simple types: strings quoted (%q), numbers
 * and booleans bare; anything else is shown as JSON cut at 100 characters.
 */
export function formatFieldValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 100 ? `${json.slice(0, 100)}...` : json;
}
