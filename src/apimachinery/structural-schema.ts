// Validation of a custom resource against its CRD's OpenAPI v3 schema, for the subset of schema
// keywords cachegate's own CRDs use (type, properties, additionalProperties, items, required, enum,
// pattern, format date-time), with the causes kube-apiserver gives:
// `spec.group: Invalid value: "integer": spec.group in body must be of type string: "integer"`.
// null counts as absent, and properties the schema does not name pass, as they would be pruned.

import type { StatusCause } from '../errors.js';
import { invalidCause, notSupportedCause, requiredCause, typeInvalidCause } from './field-causes.js';
import { isPlainObject } from './object-meta.js';

/** StructuralSchema is an OpenAPI v3 schema node of the supported subset. */
export interface StructuralSchema {
  readonly type: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  readonly properties?: Readonly<Record<string, StructuralSchema>>;
  readonly additionalProperties?: StructuralSchema;
  readonly items?: StructuralSchema;
  readonly required?: readonly string[];
  readonly enum?: readonly string[];
  readonly pattern?: string;
  readonly format?: 'date-time';
}

// RFC 3339 as the OpenAPI date-time format accepts it (a space may stand for the T).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** validateSchema lists what is wrong with value under schema; path is the value's field path ('' at the root). */
export function validateSchema(value: unknown, schema: StructuralSchema, path = ''): StatusCause[] {
  if (value === null || value === undefined) return [];
  const actual = openApiType(value);
  if (!typeMatches(actual, schema.type)) {
    return [typeInvalidCause(path, actual, `${bodyPath(path)} in body must be of type ${schema.type}: ${JSON.stringify(actual)}`)];
  }
  if (isPlainObject(value)) return validateObject(value, schema, path);
  if (Array.isArray(value)) return schema.items === undefined ? [] : value.flatMap((item, i) => validateSchema(item, schema.items as StructuralSchema, `${path}[${i}]`));
  return typeof value === 'string' ? validateString(value, schema, path) : [];
}

function validateObject(value: Record<string, unknown>, schema: StructuralSchema, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const name of schema.required ?? []) {
    if (value[name] === undefined || value[name] === null) causes.push(requiredCause(child(path, name)));
  }
  for (const [name, field] of Object.entries(value)) {
    const fieldSchema = schema.properties !== undefined && Object.hasOwn(schema.properties, name) ? schema.properties[name] : schema.additionalProperties;
    if (fieldSchema !== undefined) causes.push(...validateSchema(field, fieldSchema, child(path, name)));
  }
  return causes;
}

function validateString(value: string, schema: StructuralSchema, path: string): StatusCause[] {
  if (schema.enum !== undefined && !schema.enum.includes(value)) return [notSupportedCause(path, value, schema.enum)];
  const causes: StatusCause[] = [];
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
    causes.push(invalidCause(path, value, `${bodyPath(path)} in body should match '${schema.pattern}'`));
  }
  if (schema.format === 'date-time' && !DATE_TIME.test(value)) {
    causes.push(invalidCause(path, value, `${bodyPath(path)} in body must be of type date-time: ${JSON.stringify(value)}`));
  }
  return causes;
}

/** openApiType names a JSON value's type as OpenAPI validation reports it. */
function openApiType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  return 'object';
}

function typeMatches(actual: string, wanted: StructuralSchema['type']): boolean {
  return actual === wanted || (wanted === 'number' && actual === 'integer');
}

function child(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

function bodyPath(path: string): string {
  return path === '' ? '.' : path;
}
