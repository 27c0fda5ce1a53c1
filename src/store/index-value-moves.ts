// How one object's index values move when a store replaces its version: a value both versions
// carry only has its object reference swapped, a value that came or went moves buckets.

import type { KubeObject } from '../apimachinery/object-meta.js';

/** ValueMoves are the bucket changes an index makes for one value. */
export interface ValueMoves {
  replace(value: string, prev: KubeObject, next: KubeObject): void;
  addFresh(value: string, obj: KubeObject): void;
  remove(value: string, obj: KubeObject): void;
}

/**
 * SMALL_PRODUCT bounds prev × next value counts for which update scans arrays instead of building
 * sets: up to about 50 values on each side (a CachedObject with 20 labels has 2 × 26) the scans
 * measured faster, beyond that the sets win.
 */
const SMALL_PRODUCT = 2500;

/** moveObject moves an object's entries for a write: a create (no prev), a delete (no next) or a replace. */
export function moveObject(
  on: ValueMoves, prev: KubeObject | undefined, next: KubeObject | undefined, prevValues: readonly string[], nextValues: readonly string[],
): void {
  if (prev === undefined) {
    if (next !== undefined) for (const value of nextValues) on.addFresh(value, next);
    return;
  }
  if (next === undefined) {
    for (const value of prevValues) on.remove(value, prev);
    return;
  }
  moveValues(on, prev, next, prevValues, nextValues);
}

/** moveValues moves an object from prev's values to next's values. */
export function moveValues(on: ValueMoves, prev: KubeObject, next: KubeObject, prevValues: readonly string[], nextValues: readonly string[]): void {
  if (prevValues.length * nextValues.length <= SMALL_PRODUCT) moveSmall(on, prev, next, prevValues, nextValues);
  else moveLarge(on, prev, next, prevValues, nextValues);
}

// The common object has a handful of values: scanning the two short arrays costs less than
// building two sets, and allocates nothing.
function moveSmall(on: ValueMoves, prev: KubeObject, next: KubeObject, prevValues: readonly string[], nextValues: readonly string[]): void {
  for (const value of nextValues) {
    if (prevValues.includes(value)) on.replace(value, prev, next);
    else on.addFresh(value, next);
  }
  for (const value of prevValues) if (!nextValues.includes(value)) on.remove(value, prev);
}

// An object with thousands of labels (two label-index values per label) would make the scans
// above quadratic: 15k labels cost seconds per write. Index functions list values in a stable
// order (labels keep their order across a patch), so a value kept at the same position only has
// its reference swapped; only the values that moved, came or went go through sets.
function moveLarge(on: ValueMoves, prev: KubeObject, next: KubeObject, prevValues: readonly string[], nextValues: readonly string[]): void {
  const common = Math.min(prevValues.length, nextValues.length);
  const kept = new Set<string>();
  const wanted = new Set<string>();
  for (let i = 0; i < common; i++) {
    const before = prevValues[i] as string;
    const after = nextValues[i] as string;
    if (before === after) {
      on.replace(after, prev, next);
    } else {
      kept.add(before);
      wanted.add(after);
    }
  }
  for (let i = common; i < prevValues.length; i++) kept.add(prevValues[i] as string);
  for (let i = common; i < nextValues.length; i++) wanted.add(nextValues[i] as string);
  for (const value of wanted) {
    if (kept.delete(value)) on.replace(value, prev, next);
    else on.addFresh(value, next);
  }
  for (const value of kept) on.remove(value, prev);
}
