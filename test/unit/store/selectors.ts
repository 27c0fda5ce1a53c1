// Tiny inline selectors for the store tests; the real parsers live in src/apimachinery and are
// tested there. The store only ever calls matches(), empty and toString().

import type { StringMap } from '../../../src/apimachinery/object-meta.js';
import type { FieldSelector, LabelSelector } from '../../../src/apimachinery/selector.js';

/** labelEquals selects objects whose labels include every given key=value pair. */
export function labelEquals(wanted: Record<string, string>): LabelSelector {
  const entries = Object.entries(wanted).sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    requirements: entries.map(([key, value]) => ({ key, operator: '=', values: [value] })),
    empty: entries.length === 0,
    matches: (labels: StringMap | undefined) => entries.every(([key, value]) => labels?.[key] === value),
    toString: () => entries.map(([key, value]) => `${key}=${value}`).join(','),
  };
}

/** nameEquals selects objects by metadata.name. */
export function nameEquals(name: string): FieldSelector {
  return {
    requirements: [{ field: 'metadata.name', operator: '=', value: name }],
    empty: false,
    matches: (obj) => obj.metadata.name === name,
    toString: () => `metadata.name=${name}`,
  };
}

/** nameNot selects objects whose metadata.name differs. */
export function nameNot(name: string): FieldSelector {
  return {
    requirements: [{ field: 'metadata.name', operator: '!=', value: name }],
    empty: false,
    matches: (obj) => obj.metadata.name !== name,
    toString: () => `metadata.name!=${name}`,
  };
}
