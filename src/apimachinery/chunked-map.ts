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
// The split itself is spread over the writes that follow it (see #draining).
//
// Iteration follows insertion order while the map is one Map (small maps: index values such as
// schemas keep the order they had), and chunk by chunk after the split: only callers that sort or
// do not care may hold a map that can grow past SPLIT_AT.

/** SPLIT_AT is the size past which the entries spread over chunks (rehashing that many takes a few ms). */
export const SPLIT_AT = 65_536;

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

/** MOVE_STEP is how many entries of the map being split each later write moves into the chunks. */
const MOVE_STEP = 512;

/** ChunkedMap is a Map from strings to V that splits into chunks once it holds more than splitAt keys. */
export class ChunkedMap<V> implements Iterable<[string, V]> {
  #whole: Map<string, V> | undefined = new Map();
  #chunks: Map<string, V>[] = [];
  /**
   * draining: the one Map of before the split, whose entries move into the chunks MOVE_STEP per
   * write. Moving all 65k at once cost 40-50 ms, and the per-object maps of a sync (the informer's,
   * the work queue's, the membership's) reached the split on the same write: a 300 ms stall.
   */
  #draining: Map<string, V> | undefined;
  #drain: Iterator<[string, V]> | undefined;
  #size = 0;

  constructor(private readonly splitAt = SPLIT_AT, private readonly moveStep = MOVE_STEP) {}

  get size(): number {
    return this.#whole?.size ?? this.#size;
  }

  get(key: string): V | undefined {
    if (this.#whole !== undefined) return this.#whole.get(key);
    const chunk = this.#chunk(key);
    return chunk.has(key) ? chunk.get(key) : this.#draining?.get(key);
  }

  has(key: string): boolean {
    if (this.#whole !== undefined) return this.#whole.has(key);
    return this.#chunk(key).has(key) || this.#draining?.has(key) === true;
  }

  set(key: string, value: V): this {
    const whole = this.#whole;
    if (whole !== undefined) {
      whole.set(key, value);
      if (whole.size > this.splitAt) this.#split(whole);
      return this;
    }
    const chunk = this.#chunk(key);
    const before = chunk.size;
    chunk.set(key, value);
    // A key still waiting in the map being drained moves with this write.
    if (this.#draining?.delete(key) !== true) this.#size += chunk.size - before;
    this.#moveSome();
    return this;
  }

  delete(key: string): boolean {
    if (this.#whole !== undefined) return this.#whole.delete(key);
    const deleted = this.#chunk(key).delete(key) || this.#draining?.delete(key) === true;
    if (deleted) this.#size--;
    this.#moveSome();
    return deleted;
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

  // A walk first ends the split: it costs no more than the walk itself, and no write made during
  // the walk can then move an entry from behind it to ahead of it (seen twice) or the reverse (missed).
  *#walk<T>(each: (map: Map<string, V>) => IterableIterator<T>): IterableIterator<T> {
    this.#moveSome(Number.POSITIVE_INFINITY);
    for (const map of this.#chunks) yield* each(map);
  }

  #chunk(key: string): Map<string, V> {
    return this.#chunks[chunkOf(key)] as Map<string, V>;
  }

  #split(whole: Map<string, V>): void {
    this.#chunks = Array.from({ length: CHUNKS }, () => new Map<string, V>());
    this.#size = whole.size;
    this.#whole = undefined;
    this.#draining = whole;
    this.#drain = whole.entries();
  }

  // A Map's iterator skips entries deleted after it was made, so writes may take keys out of the
  // draining map while it is being walked.
  #moveSome(step = this.moveStep): void {
    const draining = this.#draining;
    const drain = this.#drain;
    if (draining === undefined || drain === undefined) return;
    for (let moved = 0; moved < step; moved++) {
      const next = drain.next();
      if (next.done === true) {
        this.#draining = undefined;
        this.#drain = undefined;
        return;
      }
      const [key, value] = next.value;
      this.#chunk(key).set(key, value);
      draining.delete(key);
    }
  }
}
