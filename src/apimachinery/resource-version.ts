// Resource versions are opaque strings to clients, but cachegate issues decimal counters, so
// they can be compared. Like Kubernetes (strconv.ParseUint), only unsigned 64-bit decimals are
// accepted; the bound also keeps a hostile 1 MB digit string away from BigInt.

import { AppError } from '../errors.js';

const MAX_RESOURCE_VERSION = 2n ** 64n - 1n;
const MAX_DIGITS = 20;

/** parseResourceVersion reads a decimal resource version; anything else → BadRequest. */
export function parseResourceVersion(rv: string): bigint {
  const value = toBigInt(rv);
  if (value === undefined) throw new AppError('BadRequest', `invalid resource version ${JSON.stringify(rv)}`);
  return value;
}

/** invalidResourceVersion is the BadRequest for a `resourceVersion` query parameter that is not an unsigned decimal. */
export function invalidResourceVersion(rv: string): AppError {
  return new AppError('BadRequest', `invalid resourceVersion "${rv}": must be a non-negative integer`);
}

/** isNumericResourceVersion tells whether a resource version is a decimal cachegate can compare. */
export function isNumericResourceVersion(rv: string): boolean {
  return toBigInt(rv) !== undefined;
}

/** compareResourceVersions orders two numeric resource versions; non-numeric → BadRequest. */
export function compareResourceVersions(a: string, b: string): -1 | 0 | 1 {
  const left = parseResourceVersion(a);
  const right = parseResourceVersion(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

function toBigInt(rv: string): bigint | undefined {
  if (!/^[0-9]+$/.test(rv)) return undefined;
  // Leading zeros are legal for ParseUint; strip them before judging the length.
  const digits = rv.replace(/^0+(?=.)/, '');
  if (digits.length > MAX_DIGITS) return undefined;
  const value = BigInt(digits);
  return value > MAX_RESOURCE_VERSION ? undefined : value;
}
