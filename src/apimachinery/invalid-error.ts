// The 422 Invalid error of Kubernetes, built from field-level causes.

import { AppError } from '../errors.js';
import type { StatusCause } from '../errors.js';

/**
 * invalidError builds the Invalid AppError for an object, with the Kubernetes message
 * `<Kind>[.<group>] "<name>" is invalid: <field>: <message>, <field>: <message>`.
 */
export function invalidError(kind: string, name: string, causes: readonly StatusCause[], group?: string): AppError {
  const qualifiedKind = group === undefined || group === '' ? kind : `${kind}.${group}`;
  const reasons = causes.map((cause) => (cause.field ? `${cause.field}: ${cause.message}` : cause.message));
  const head = `${qualifiedKind} ${JSON.stringify(name)} is invalid`;
  const message = reasons.length === 0 ? head : `${head}: ${reasons.join(', ')}`;
  const details = group === undefined ? { name, kind, causes: [...causes] } : { name, group, kind, causes: [...causes] };
  return new AppError('Invalid', message, details);
}
