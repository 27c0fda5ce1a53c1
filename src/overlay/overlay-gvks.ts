// The overlay's configuration, `cache: {enabled, gvks, ttl}`: which kinds are overlaid and for
// how long an entry may live. Kinds not listed pass through untouched, as in the seed.

import { AppError } from '../errors.js';
import { DEFAULT_TTL_MS } from './overlay-options.js';

/** OverlayGvks answers whether writes and reads of a kind go through the overlay. */
export interface OverlayGvks {
  /** isOverlaid takes the core group as '' or 'core'. */
  isOverlaid(group: string, version: string, kind: string): boolean;
  readonly size: number;
}

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const TERM = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

/**
 * parseOverlayGvks reads `"<group>/<version>/<Kind>"` strings. The core group may be written
 * `v1/Secret` (the seed's form), `/v1/Secret` or `core/v1/Secret`. A malformed entry is Invalid,
 * naming its index, so a typo cannot silently turn the overlay off for a kind.
 */
export function parseOverlayGvks(gvks: readonly string[]): OverlayGvks {
  const known = new Set<string>();
  gvks.forEach((text, index) => known.add(gvkKey(...splitGvk(text, index))));
  return {
    size: known.size,
    isOverlaid: (group, version, kind) => known.has(gvkKey(group, version, kind)),
  };
}

/**
 * parseTtl reads a duration such as `500ms`, `90s`, `2m`, `1h` or `1m30s` into milliseconds.
 * Zero, negative and empty mean the seed's default of 2 minutes; anything else is Invalid.
 */
export function parseTtl(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return DEFAULT_TTL_MS;
  const negative = trimmed.startsWith('-');
  const body = negative ? trimmed.slice(1) : trimmed;
  if (!DURATION.test(body)) {
    throw new AppError('Invalid', `cache.ttl: ${JSON.stringify(text)} is not a duration such as 500ms, 90s, 2m or 1h`);
  }
  if (negative) return DEFAULT_TTL_MS;
  let total = 0;
  for (const [, amount, unit] of body.matchAll(TERM)) total += Number(amount) * (UNITS[unit ?? ''] ?? 0);
  return total > 0 ? Math.round(total) : DEFAULT_TTL_MS;
}

function splitGvk(text: string, index: number): [string, string, string] {
  const parts = text.split('/');
  const [group, version, kind] = parts.length === 2 ? ['', ...parts] : parts;
  if (parts.length < 2 || parts.length > 3 || !version || !kind) {
    throw new AppError('Invalid', `cache.gvks[${index}]: ${JSON.stringify(text)} is not "<group>/<version>/<Kind>"`);
  }
  return [group ?? '', version, kind];
}

// The core group has two spellings; both map to ''.
function gvkKey(group: string, version: string, kind: string): string {
  return `${group === 'core' ? '' : group}/${version}/${kind}`;
}
