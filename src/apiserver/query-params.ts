// Reading Kubernetes query parameters. Booleans are case-insensitive because clients disagree
// (the Python client sends `watch=True`, client-go sends `watch=true`, some send `1`).

import { AppError } from '../errors.js';

/** QueryValue is one raw query parameter as fastify parses it. */
export type QueryValue = string | readonly string[] | undefined;

/**
 * MAX_LIST_LIMIT bounds one page of a list. A larger `limit` is lowered to it rather
 * than refused: Kubernetes clients already expect fewer items than asked plus a continue token.
 */
export const MAX_LIST_LIMIT = 10_000;

/** firstValue gives the first value of a repeated parameter. */
export function firstValue(value: QueryValue): string | undefined {
  return Array.isArray(value) ? (value as readonly string[])[0] : (value as string | undefined);
}

/** parseBoolean reads true/false/1/0 in any case; absent → false; anything else → 400. */
export function parseBoolean(name: string, value: QueryValue): boolean {
  const raw = firstValue(value);
  if (raw === undefined || raw === '') return false;
  const lower = raw.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new AppError('BadRequest', `invalid boolean value for ${name}: "${raw}"`);
}

/** parseNonNegativeInt reads a whole number ≥ 0; absent → undefined; anything else → 400. */
export function parseNonNegativeInt(name: string, value: QueryValue): number | undefined {
  const raw = firstValue(value);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw new AppError('BadRequest', `invalid value for ${name}: "${raw}" is not a non-negative integer`);
  return Number(raw);
}

/** parseDryRun reads dryRun: absent → false, `All` → true, anything else → 400 as Kubernetes does. */
export function parseDryRun(value: QueryValue): boolean {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value as string];
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== 'All') throw new AppError('BadRequest', `invalid dry run value "${v}": only "All" is supported`);
  }
  return true;
}
