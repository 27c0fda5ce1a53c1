// Construction of one validated label-selector requirement, with Kubernetes' rules on how many
// values each operator takes. Used for selectors that arrive as objects (metav1.LabelSelector);
// the text parser checks the same rules itself so it can point at the offending token.

import { AppError } from '../errors.js';
import { isQualifiedName, isValidLabelValue } from './name-validation.js';
import type { Requirement, SelectorOperator } from './selector.js';

/** newRequirement validates a key, operator and values and returns the Requirement (values sorted). */
export function newRequirement(key: string, operator: SelectorOperator, values: readonly string[]): Requirement {
  // Selectors in objects come from decoded JSON, so the declared string types are not guaranteed.
  if (typeof key !== 'string') throw invalid('label selector keys must be strings');
  if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
    throw invalid(`key ${JSON.stringify(key)}: label selector values must be strings`);
  }
  const keyErrors = isQualifiedName(key);
  if (keyErrors.length > 0) throw invalid(`invalid label key ${JSON.stringify(key)}: ${keyErrors.join('; ')}`);
  const countError = valueCountError(operator, values.length);
  if (countError !== undefined) throw invalid(`key ${JSON.stringify(key)}: ${countError}`);
  for (const value of values) {
    const message = labelValueError(key, value);
    if (message !== undefined) throw invalid(message);
  }
  return { key, operator, values: sortedUnique(values) };
}

/** labelValueError describes why a value is not a valid label value for a key, if it is not. */
export function labelValueError(key: string, value: string): string | undefined {
  const errors = isValidLabelValue(value);
  if (errors.length === 0) return undefined;
  return `invalid label value ${JSON.stringify(value)} for key ${JSON.stringify(key)}: ${errors.join('; ')}`;
}

/** sortedUnique returns the values sorted, without duplicates, as Kubernetes stores them. */
export function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

function valueCountError(operator: SelectorOperator, count: number): string | undefined {
  switch (operator) {
    case 'in':
    case 'notin':
      return count === 0 ? "for 'in', 'notin' operators, values set can't be empty" : undefined;
    case '=':
    case '!=':
      return count === 1 ? undefined : 'exact-match compatibility requires one single value';
    case 'exists':
    case '!':
      return count === 0 ? undefined : 'values set must be empty for exists and does not exist';
  }
}

function invalid(message: string): AppError {
  return new AppError('Invalid', message);
}
