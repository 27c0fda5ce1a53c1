// A bound on how deeply a JSON body may nest. JSON.parse reads any depth, but much of what runs
// on an object afterwards recurses (JSON.stringify, structuredClone, deep freeze, merge patch), and
// V8 runs out of stack a few thousand levels down: one such object stored would make every later
// list of its resource fail. No Kubernetes object needs anywhere near this many levels.

import { AppError } from '../errors.js';

/** MAX_JSON_DEPTH is the deepest nesting of objects and arrays a body may have (the top object is level 1). */
export const MAX_JSON_DEPTH = 500;

/** jsonDepthExceeds tells whether a JSON value nests deeper than max; iterative, so any depth is safe to check. */
export function jsonDepthExceeds(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const pending: { readonly node: unknown; readonly level: number }[] = [{ node: value, level: 1 }];
  for (let entry = pending.pop(); entry !== undefined; entry = pending.pop()) {
    const { node, level } = entry;
    if (typeof node !== 'object' || node === null) continue;
    if (level > max) return true;
    for (const child of Object.values(node)) pending.push({ node: child, level: level + 1 });
  }
  return false;
}

/** assertJsonDepth throws AppError BadRequest when a value nests deeper than MAX_JSON_DEPTH. */
export function assertJsonDepth(value: unknown, what = 'the request body'): void {
  if (jsonDepthExceeds(value)) throw new AppError('BadRequest', `${what} nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`);
}
