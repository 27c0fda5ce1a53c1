// Field selectors: comma-separated `field=value`, `field==value` and `field!=value` terms over
// metadata.name and metadata.namespace, the only fields every resource supports, and the fields a
// resource adds (an Event's involvedObject.name, for one). Values escape `\`, `,` and `=` with a
// backslash, as in Kubernetes.

import { AppError } from '../errors.js';
import type { FieldRequirement, FieldSelectable, FieldSelector } from './selector.js';

interface Term {
  readonly text: string;
  readonly position: number;
}

/** METADATA_FIELDS are the fields every resource supports. */
const METADATA_FIELDS: ReadonlySet<string> = new Set(['metadata.name', 'metadata.namespace']);

/** parseFieldSelector parses field selector text ('' selects everything); resourceFields are a resource's own fields. */
export function parseFieldSelector(text: string, resourceFields: readonly string[] = []): FieldSelector {
  const supported = (field: string): boolean => METADATA_FIELDS.has(field) || resourceFields.includes(field);
  const requirements = splitTerms(text)
    .filter((term) => term.text !== '')
    .map((term) => parseTerm(text, term, supported));
  return new ParsedFieldSelector(requirements);
}

class ParsedFieldSelector implements FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  readonly empty: boolean;
  readonly #text: string;
  /** paths are each requirement's field split at its dots, once, not per object matched. */
  readonly #paths: readonly (readonly string[])[];

  constructor(requirements: readonly FieldRequirement[]) {
    // Kubernetes sorts the terms; doing the same makes toString() canonical.
    const rendered = requirements.map((requirement) => ({ requirement, text: termText(requirement) }));
    rendered.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    this.requirements = Object.freeze(rendered.map((entry) => Object.freeze(entry.requirement)));
    this.empty = rendered.length === 0;
    this.#text = rendered.map((entry) => entry.text).join(',');
    this.#paths = this.requirements.map((requirement) => requirement.field.split('.'));
  }

  matches(obj: FieldSelectable): boolean {
    const requirements = this.requirements;
    for (let i = 0; i < requirements.length; i++) {
      const requirement = requirements[i];
      if (requirement === undefined) continue;
      // An absent field reads as '', so `metadata.namespace=` selects cluster-scoped objects.
      if ((fieldValue(obj, requirement.field, this.#paths[i] ?? []) === requirement.value) !== (requirement.operator === '=')) return false;
    }
    return true;
  }

  toString(): string {
    return this.#text;
  }
}

// The value of a dotted field as a selector compares it: metadata's two fields directly (the hot
// path of every filtered list), others by walking the object; anything absent or not a scalar is ''.
function fieldValue(obj: FieldSelectable, field: string, path: readonly string[]): string {
  if (field === 'metadata.name') return obj.metadata.name ?? '';
  if (field === 'metadata.namespace') return obj.metadata.namespace ?? '';
  let value: unknown = obj;
  for (const part of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

// Splits on commas not escaped by a backslash; escapes stay in the terms for unescapeValue.
function splitTerms(text: string): Term[] {
  const terms: Term[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charAt(i) === '\\') i++;
    else if (text.charAt(i) === ',') {
      terms.push({ text: text.slice(start, i), position: start });
      start = i + 1;
    }
  }
  terms.push({ text: text.slice(start), position: start });
  return terms;
}

function parseTerm(text: string, term: Term, supported: (field: string) => boolean): FieldRequirement {
  const operatorAt = findOperator(term.text);
  if (operatorAt === undefined) {
    throw syntaxError(text, term.position, `found '${term.text}', expected: field=value, field==value or field!=value`);
  }
  const { index, operator } = operatorAt;
  // Whitespace around a field name is harmless; values are taken verbatim, as in Kubernetes.
  const field = term.text.slice(0, index).trim();
  if (field === '') throw syntaxError(text, term.position + index, `found '${operator}', expected: field name`);
  if (!supported(field)) throw new AppError('BadRequest', `field label not supported: ${field}`);
  const valueStart = index + operator.length;
  const value = unescapeValue(text, term.text.slice(valueStart), term.position + valueStart);
  return { field, operator: operator === '!=' ? '!=' : '=', value };
}

// The first `!=`, `==` or `=` splits field from value, as Kubernetes' splitTerm does.
function findOperator(term: string): { index: number; operator: '!=' | '==' | '=' } | undefined {
  for (let i = 0; i < term.length; i++) {
    const pair = term.slice(i, i + 2);
    if (pair === '!=' || pair === '==') return { index: i, operator: pair };
    if (term.charAt(i) === '=') return { index: i, operator: '=' };
  }
  return undefined;
}

function unescapeValue(text: string, value: string, position: number): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const char = value.charAt(i);
    if (char === '=') {
      throw syntaxError(text, position + i, "found unescaped '=' in value, expected: '\\='");
    }
    if (char !== '\\') {
      out += char;
      continue;
    }
    const escaped = value.charAt(i + 1);
    if (escaped !== '\\' && escaped !== ',' && escaped !== '=') {
      throw syntaxError(text, position + i, `invalid escape sequence '\\${escaped}' in value`);
    }
    out += escaped;
    i++;
  }
  return out;
}

function escapeValue(value: string): string {
  return value.replace(/[\\,=]/g, (char) => `\\${char}`);
}

function termText(requirement: FieldRequirement): string {
  return `${requirement.field}${requirement.operator}${escapeValue(requirement.value)}`;
}

function syntaxError(text: string, position: number, message: string): AppError {
  return new AppError(
    'BadRequest',
    `invalid field selector: ${message} at position ${position} in ${JSON.stringify(text)}`,
  );
}
