// What is done to a config file's values before they are validated, so that it reads as people
// write it: a field with no value (YAML `port:`) is left out and gets its default, and a whole
// number may be written as a string of digits (environment variables and flags are strings, and
// YAML files sometimes quote numbers). Nothing else is converted: `enabled: 1` stays refused.

import type { TSchema } from '@sinclair/typebox';

const DIGITS = /^\d+$/;

/** normalizeInput gives a copy of value with empty fields left out and digit strings made numbers where schema wants integers. */
export function normalizeInput(schema: TSchema, value: unknown): unknown {
  if (schema['type'] === 'integer' && typeof value === 'string' && DIGITS.test(value)) return Number(value);
  if (Array.isArray(value)) {
    const items = schema['items'] as TSchema | undefined;
    return items === undefined ? value : value.map((item) => normalizeInput(items, item));
  }
  if (typeof value !== 'object' || value === null) return value;
  const properties = (schema['properties'] ?? {}) as Record<string, TSchema>;
  const entries = Object.entries(value).filter(([, field]) => field !== null);
  return Object.fromEntries(entries.map(([key, field]) => [key, properties[key] ? normalizeInput(properties[key], field) : field]));
}
