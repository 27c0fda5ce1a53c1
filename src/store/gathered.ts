// What a load gathers for one index before it changes anything (see IndexBuckets.gather): a
// throwing index function then leaves the index as it was.

import type { KubeObject } from '../apimachinery/object-meta.js';

/** Gathered is a load's objects by index value. */
export class Gathered extends Map<string, KubeObject[]> {
  /** notOwnNamed: cluster-scoped objects whose values lack their own name, for an index that keeps own names implicitly. */
  readonly notOwnNamed: KubeObject[] = [];
}
