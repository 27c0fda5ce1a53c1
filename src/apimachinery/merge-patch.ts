// RFC 7386 JSON merge patch. Targets are often deeply frozen store objects, so nothing is ever
// mutated: touched objects are copied and untouched subtrees are shared with the target. The
// result must therefore be treated as immutable too (copy before editing nested values).

import { isPlainObject } from './object-meta.js';
import { getOwn, setOwn } from './set-own.js';

/** applyMergePatch applies an RFC 7386 merge patch and returns the new value; inputs are untouched. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  // Spread defines own properties, so even a `__proto__` key is copied as data.
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else setOwn(result, name, applyMergePatch(getOwn(result, name), value));
  }
  return result;
}
