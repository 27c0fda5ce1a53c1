// Index keys made of the parts every copy of one (shard, cluster, schema) shares. Every cache
// write runs every index function, and joining the same key again for each copy was a new string
// per index per write (hashed anew by the bucket lookup, then garbage). A LastKey keeps the key it
// built last with the parts it came from, so a run of writes to one location reuses one string.

/** LastKey remembers the last key built from up to three parts, and its one-key list. */
export class LastKey {
  #a: string | undefined;
  #b: string | undefined;
  #c: string | undefined;
  #keys: readonly string[] = [];

  /** of returns [build(a, b, c)], the very list of the last call when the parts are equal. */
  of(a: string, b: string, c: string, build: (a: string, b: string, c: string) => string): readonly string[] {
    if (a === this.#a && b === this.#b && c === this.#c) return this.#keys;
    // Not frozen (readonly by type only): V8's for-of over a frozen array allocates per step, and
    // every index update loops over these lists.
    this.#keys = [build(a, b, c)];
    this.#a = a;
    this.#b = b;
    this.#c = c;
    return this.#keys;
  }
}
