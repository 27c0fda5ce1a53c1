// The contract of parsed label and field selectors. Parsers live in label-selector.ts and
// field-selector.ts; the store and the read model only ever call matches().

import type { StringMap } from './object-meta.js';

/** SelectorOperator is one label-selector operator after parsing (`==` is folded into `=`). */
export type SelectorOperator = '=' | '!=' | 'in' | 'notin' | 'exists' | '!';

/** Requirement is one comma-separated term of a selector. */
export interface Requirement {
  readonly key: string;
  readonly operator: SelectorOperator;
  /** values is sorted; empty for exists and `!`. */
  readonly values: readonly string[];
}

/** LabelSelector is a parsed label selector; all requirements must hold (logical AND). */
export interface LabelSelector {
  readonly requirements: readonly Requirement[];
  /** empty is true when the selector selects everything. */
  readonly empty: boolean;
  matches(labels: StringMap | undefined): boolean;
  /** toString gives the canonical text form (sorted by key), parseable again. */
  toString(): string;
}

/** FieldRequirement is one term of a field selector; only =, == (folded to =) and != exist. */
export interface FieldRequirement {
  /** field is a dotted path: metadata.name and metadata.namespace everywhere, more where a resource has them (events). */
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** FieldSelectable is what a field selector reads: an object's metadata and, for other fields, the object itself. */
export interface FieldSelectable {
  readonly metadata: { readonly name?: string; readonly namespace?: string };
  readonly [field: string]: unknown;
}

/** FieldSelector is a parsed field selector. */
export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  readonly empty: boolean;
  /** matches reads each field of obj (an absent one reads as ''). */
  matches(obj: FieldSelectable): boolean;
  toString(): string;
}
