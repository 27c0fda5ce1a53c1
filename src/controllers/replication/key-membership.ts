// Which source objects of one replication controller are selected and which have a copy, for
// status.resourceCounts. One map entry per key holds both facts as bits, so a replicated object
// costs one entry and one key string here rather than one in each of two sets (at 100k+ objects
// that is several megabytes).

import { ChunkedMap } from '../../apimachinery/chunked-map.js';
import { flatString } from '../../apimachinery/flat-string.js';

/** SELECTED: the source object exists and matches the selector. */
export const SELECTED = 1;
/** COPIED: the cache holds a copy of it. */
export const COPIED = 2;

type Flag = typeof SELECTED | typeof COPIED;

/**
 * keptKey is the string a new key is stored as, for as long as the object lives. A
 * `<namespace>/<name>` key was joined for the call: it is copied flat (see flat-string.ts). A bare
 * name (a cluster-scoped object's key) is the object's own name string, parsed flat: kept as is, it
 * is shared with the object.
 */
function keptKey(key: string): string {
  return key.includes('/') ? flatString(key) : key;
}

/** KeyMembership tracks the SELECTED and COPIED bits of `<namespace>/<name>` (or bare name) keys, with their counts. */
export class KeyMembership {
  // Chunked: at a million keys a Map's doubling would stop the event loop (see chunked-map.ts).
  readonly #bits = new ChunkedMap<number>();
  #selected = 0;
  #copied = 0;

  /** selected is the number of keys with SELECTED set. */
  get selected(): number {
    return this.#selected;
  }

  /** copied is the number of keys with COPIED set. */
  get copied(): number {
    return this.#copied;
  }

  /** mark sets or clears one bit of a key and tells whether it changed. */
  mark(key: string, flag: Flag, on: boolean): boolean {
    const was = this.#bits.get(key) ?? 0;
    const now = on ? was | flag : was & ~flag;
    if (now === was) return false;
    if (now === 0) this.#bits.delete(key);
    else this.#bits.set(was === 0 ? keptKey(key) : key, now);
    this.#count(flag, on ? 1 : -1);
    return true;
  }

  /** clearSelected clears SELECTED on every key (the selector changed; the caller marks again). */
  clearSelected(): void {
    for (const [key, bits] of [...this.#bits]) {
      if ((bits & SELECTED) === 0) continue;
      if (bits === SELECTED) this.#bits.delete(key);
      else this.#bits.set(key, bits & ~SELECTED);
    }
    this.#selected = 0;
  }

  /** copiedKeys lists the keys with COPIED set. */
  copiedKeys(): string[] {
    const keys: string[] = [];
    for (const [key, bits] of this.#bits) if ((bits & COPIED) !== 0) keys.push(key);
    return keys;
  }

  #count(flag: Flag, delta: 1 | -1): void {
    if (flag === SELECTED) this.#selected += delta;
    else this.#copied += delta;
  }
}
