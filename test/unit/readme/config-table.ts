// Renders the README's table of config fields from the config schema, one row per field: its
// path, what it accepts, its default and what it does. Sections that only group other fields
// (an object with a default of {}) get no row of their own; their fields do.

import type { TSchema } from '@sinclair/typebox';
import { ConfigSchema } from '../../../src/config/config-schema.js';

/** CONFIG_TABLE_HEADER is the header of the README's field table. */
export const CONFIG_TABLE_HEADER = ['| field | accepts | default | what it does |', '|---|---|---|---|'];

/** configTableRows renders one markdown row per field of the config schema. */
export function configTableRows(): string[] {
  return rowsOf(ConfigSchema, '');
}

function rowsOf(object: TSchema, prefix: string): string[] {
  const properties = (object['properties'] ?? {}) as Record<string, TSchema>;
  const required = new Set((object['required'] ?? []) as string[]);
  return Object.entries(properties).flatMap(([key, field]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const grouping = field['type'] === 'object' && field['default'] !== undefined;
    const own = grouping ? [] : [row(path, field, required.has(key))];
    const items = field['items'] as TSchema | undefined;
    if (field['type'] === 'object') return [...own, ...rowsOf(field, path)];
    if (items?.['type'] === 'object') return [...own, ...rowsOf(items, `${path}[]`)];
    return own;
  });
}

function row(path: string, field: TSchema, required: boolean): string {
  return `| \`${path}\` | ${accepts(field)} | ${defaultOf(field, required)} | ${String(field['description'] ?? '')} |`;
}

function accepts(field: TSchema): string {
  const limit = field['maxDuration'] === undefined ? '' : `, at most ${String(field['maxDuration'])}`;
  if (field['title'] !== undefined) return `${String(field['title'])}${limit}`;
  if (field['enum'] !== undefined) return (field['enum'] as string[]).map((v) => `\`${v}\``).join(', ');
  switch (field['type']) {
    case 'integer': return `${String(field['minimum'])} to ${String(field['maximum'])}`;
    case 'boolean': return '`true`, `false`';
    case 'object': return 'object';
    case 'array': {
      const items = field['items'] as TSchema;
      return items['type'] === 'object' ? 'list' : `list of ${accepts(items)}`;
    }
    default: return String(field['type']);
  }
}

function defaultOf(field: TSchema, required: boolean): string {
  if (field['defaultText'] !== undefined) return String(field['defaultText']);
  const value: unknown = field['default'];
  if (value === undefined) return required ? 'required' : 'none';
  return `\`${Array.isArray(value) ? `[${value.join(', ')}]` : String(value)}\``;
}
