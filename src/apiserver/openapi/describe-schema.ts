// Adding descriptions to a schema written without them (a validation schema), by field path.

import { isPlainObject } from '../../apimachinery/object-meta.js';
import type { OpenApiSchema } from './meta-schemas.js';

/**
 * withDescriptions copies schema and sets the description of each field a key names: '' is the
 * root, `spec.group` a nested property; `[]` steps into an array's items (`status.conditions[].type`).
 * A path the schema does not have is an error in the caller's table, so it throws.
 */
export function withDescriptions(schema: unknown, descriptions: Readonly<Record<string, string>>): OpenApiSchema {
  const copy = deepCopy(schema);
  if (!isPlainObject(copy)) throw new Error('withDescriptions: the schema is not an object');
  for (const [path, description] of Object.entries(descriptions)) {
    const node = nodeAt(copy, path);
    if (node === undefined) throw new Error(`withDescriptions: the schema has no field ${JSON.stringify(path)}`);
    node['description'] = description;
  }
  return copy;
}

function nodeAt(root: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
  let node: Record<string, unknown> | undefined = root;
  for (const step of path === '' ? [] : path.split('.')) {
    const array = step.endsWith('[]');
    const name = array ? step.slice(0, -2) : step;
    const properties: unknown = node?.['properties'];
    const next: unknown = isPlainObject(properties) && Object.hasOwn(properties, name) ? properties[name] : undefined;
    const target: unknown = array && isPlainObject(next) ? next['items'] : next;
    node = isPlainObject(target) ? target : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

function deepCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepCopy);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, deepCopy(v)]));
}
