// Indexes on one label of the stored objects themselves. A store plans a list's label selector
// onto an index registered under labelIndexName (see src/store/label-index-plan.ts), as
// kube-apiserver's watch cache plans selectors onto its `l:<label>` indexers.

import type { KubeObject } from './object-meta.js';

const NO_VALUES: readonly string[] = [];

/** labelIndexName is the name a label's index is registered under; stores recognize it by that name. */
export function labelIndexName(key: string): string {
  return `label:${key}`;
}

/**
 * labelIndexFunc indexes an object by its own value of one label; an object without it is not
 * indexed. Every write runs it, and a sync writes runs of one value: the last value's list is
 * handed out again (not frozen: V8's for-of over a frozen array allocates per step). Each call
 * gives a function of its own, for one store.
 */
export function labelIndexFunc(key: string): (obj: KubeObject) => readonly string[] {
  let last: readonly string[] = NO_VALUES;
  return (obj) => {
    const value = obj.metadata.labels?.[key];
    if (value === undefined) return NO_VALUES;
    if (last[0] !== value) last = [value];
    return last;
  };
}
