// A string-keyed map that stops being one JS Map once it is large. A Map doubles its table when it
// fills and rehashes every entry in that one call: about 90 ms at a million keys, 200 ms at two
// million. At a million objects several per-object maps (the work queue's, the copies' names, the
// unique index values) reached that size on the same write and stopped the event loop together.
// Past SPLIT_AT keys the entries move, once, into CHUNKS maps; a key's chunk is a hash of at most
// 24 characters of it, so each lookup is still one Map lookup and each doubling rehashes a
// CHUNKS-th of the keys. The hash must spread keys that differ only in a few trailing characters
// (`widget-0000001`, `widget-0000002`, ...): a sum of three sampled characters once put a million
// such copy names into 10 chunks of 100k that, filled in step, doubled within the same few writes,
// one map after another (the object table, the name index, the work queue), stalling the loop for
// about half a second. Keys that agree in every sampled character all land in one chunk, which is
// then just as slow as one Map, never slower.
//
// Iteration follows insertion order while the map is one Map (small maps: index values such as
// schemas keep the order they had), and chunk by chunk after the split: only callers that sort or
// do not care may hold a map that can grow past SPLIT_AT.

/**
 * SPLIT_AT is the size past which the entries spread over chunks. The split moves them all in one
 * call, and the per-object maps of a sync (the work queue's keys, the membership bits, the lag
 * metric's first-seen times) reach it on the same write: at 65,536 the
 * splits took 40-50 ms each under load, about 300 ms together. At 16,384 they take a quarter of
 * that. (Moving the entries a few hundred per later write instead bounded the stall as well, but
 * cost about 0.5 s more CPU over a 100k sync: deleting each moved entry from the old map.)
 */
export const SPLIT_AT = 16_384;

/** CHUNK_BITS: 2^CHUNK_BITS chunks after the split. */
const CHUNK_BITS = 5;

/** CHUNKS is the number of chunks after the split. */
export const CHUNKS = 2 ** CHUNK_BITS;

/** TAIL and SPREAD: chunkOf reads a key's last TAIL characters and SPREAD more spread over the rest (all of a short key). */
const TAIL = 8;
const SPREAD = 16;

/**
 * chunkOf hashes (FNV-1a) the key's length, its last TAIL characters, where generated names
 * differ, and SPREAD characters spread over the rest, where namespaces and prefixes differ; the
 * top bits of the hash pick the chunk, as they depend on every character read.
 */
export function chunkOf(key: string): number {
  const n = key.length;
  let hash = Math.imul(0x811c9dc5 ^ n, 0x01000193);
  const tail = Math.min(n, TAIL);
  for (let i = n - tail; i < n; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  const head = n - tail;
  if (head > 0) {
    const reads = Math.min(head, SPREAD);
    for (let r = 0; r < reads; r++) hash = Math.imul(hash ^ key.charCodeAt(Math.floor((r * head) / reads)), 0x01000193);
  }
  return hash >>> (32 - CHUNK_BITS);
}

/** ChunkedMap is a Map from strings to V that splits into chunks once it holds more than splitAt keys. */
export class ChunkedMap<V> implements Iterable<[string, V]> {
  #whole: Map<string, V> | undefined = new Map();
  #chunks: Map<string, V>[] = [];
  #size = 0;

  constructor(private readonly splitAt = SPLIT_AT) {}

  get size(): number {
    return this.#whole?.size ?? this.#size;
  }

  get(key: string): V | undefined {
    return (this.#whole ?? (this.#chunks[chunkOf(key)] as Map<string, V>)).get(key);
  }

  has(key: string): boolean {
    return (this.#whole ?? (this.#chunks[chunkOf(key)] as Map<string, V>)).has(key);
  }

  set(key: string, value: V): this {
    const whole = this.#whole;
    if (whole !== undefined) {
      whole.set(key, value);
      if (whole.size > this.splitAt) this.#split(whole);
      return this;
    }
    const chunk = this.#chunks[chunkOf(key)] as Map<string, V>;
    const before = chunk.size;
    chunk.set(key, value);
    this.#size += chunk.size - before;
    return this;
  }

  delete(key: string): boolean {
    if (this.#whole !== undefined) return this.#whole.delete(key);
    if (!(this.#chunks[chunkOf(key)] as Map<string, V>).delete(key)) return false;
    this.#size--;
    return true;
  }

  // One Map hands out its own iterators; chunks are walked one after the other.
  keys(): IterableIterator<string> {
    return this.#whole?.keys() ?? this.#walk((map) => map.keys());
  }

  values(): IterableIterator<V> {
    return this.#whole?.values() ?? this.#walk((map) => map.values());
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.#whole?.entries() ?? this.#walk((map) => map.entries());
  }

  *#walk<T>(each: (map: Map<string, V>) => IterableIterator<T>): IterableIterator<T> {
    for (const map of this.#chunks) yield* each(map);
  }

  #split(whole: Map<string, V>): void {
    this.#chunks = Array.from({ length: CHUNKS }, () => new Map<string, V>());
    // forEach hands out key and value without an entry array per key.
    whole.forEach((value, key) => (this.#chunks[chunkOf(key)] as Map<string, V>).set(key, value));
    this.#size = whole.size;
    this.#whole = undefined;
  }
}
