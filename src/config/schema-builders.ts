// The few shapes the config schema is built from, so each field reads as one line. Besides JSON
// Schema's own keywords, fields carry three annotations the config validator knows: `hint` (the
// problem a message states when a pattern or format does not match), `defaultText` (the default
// as the README shows it, when it is computed) and `maxDuration` (the longest duration allowed).

import { Type } from '@sinclair/typebox';
import type { SchemaOptions, TProperties, TSchema, TUnsafe } from '@sinclair/typebox';
import { LOGICAL_CLUSTER_NAME_PATTERN } from '../apimachinery/logical-cluster.js';

/** FieldOptions are JSON Schema options plus the config's annotations. */
export interface FieldOptions extends SchemaOptions {
  readonly hint?: string;
  readonly defaultText?: string;
  readonly maxDuration?: string;
}

/** section is a group of fields present with its defaults even when the file leaves it out. */
export function section<T extends TProperties>(properties: T) {
  return Type.Object(properties, { additionalProperties: false, default: {} });
}

/** strictObject is an object whose unknown fields are refused. */
export function strictObject<T extends TProperties>(properties: T, options: FieldOptions = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/** wholeNumber is an integer from minimum to maximum (both included). */
export function wholeNumber(minimum: number, maximum: number, options: FieldOptions) {
  return Type.Integer({ minimum, maximum, ...options });
}

/** oneOf is a string that must be one of values; its TypeScript type is their union. */
export function oneOf<const T extends readonly string[]>(values: T, options: FieldOptions): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** nonEmptyString is a string of at least one character. */
export function nonEmptyString(options: FieldOptions) {
  return Type.String({ minLength: 1, hint: 'must be a non-empty string', title: 'non-empty string', ...options });
}

/** listOf is a list of items; every item is validated, its path named in messages (`sources[1]`). */
export function listOf<T extends TSchema>(items: T, options: FieldOptions) {
  return Type.Array(items, options);
}

/** logicalClusterName is a logical cluster's name, as kcp allows it. */
export function logicalClusterName(options: FieldOptions = {}) {
  const pattern = LOGICAL_CLUSTER_NAME_PATTERN.source;
  return Type.String({ pattern, title: 'logical cluster name', hint: `must be a logical cluster name matching ${pattern}`, ...options });
}
