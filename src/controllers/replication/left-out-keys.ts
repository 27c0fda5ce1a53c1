// The source objects of one replication controller that are held but not replicated: the selector
// leaves them out, or they are being deleted without finalizers. status.resourceCounts.local is the
// source view's size less these, so a replicated object costs no entry here: with the usual
// selector (all, or a label most objects carry) the set stays empty or small, where a set of the
// selected keys held one entry per object (about 37 bytes each at 100k objects and more).

import { ChunkedSet } from '../../apimachinery/chunked-set.js';
import { flatString } from '../../apimachinery/flat-string.js';

/** LeftOutKeys are the `<namespace>/<name>` (or bare name) keys of held source objects that are not replicated. */
export class LeftOutKeys {
  // Chunked: a selector can leave out most of a million objects (see chunked-set.ts).
  #keys = new ChunkedSet<string>();

  /** size is the number of keys left out. */
  get size(): number {
    return this.#keys.size;
  }

  /** note records whether key's held object is left out; it tells whether that changed. */
  note(key: string, leftOut: boolean): boolean {
    if (!leftOut) return this.#keys.delete(key);
    if (this.#keys.has(key)) return false;
    // A `<namespace>/<name>` key was joined for the call: it is kept flat (see flat-string.ts).
    this.#keys.add(key.includes('/') ? flatString(key) : key);
    return true;
  }

  /** clear forgets every key (the selector changed; the caller notes each object again). */
  clear(): void {
    this.#keys = new ChunkedSet<string>();
  }
}
