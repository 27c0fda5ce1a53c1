// A set kept as a list of JS Sets of bounded size. A JS Set doubles its table when it fills and
// rehashes every entry in that one call; an index bucket that every object of a table shares (a
// schema, a label all copies carry) holds a million objects, and a dozen such buckets reached the
// same doubling on the same write: one write stopped the event loop for 1 to 2 s. Chunks of at
// most CHUNK_SIZE entries bound each rehash to that many.
//
// Order is a Set's: insertion order, a re-added value going last (new values go to the last
// chunk; a delete takes a value out of whichever chunk holds it).
//
// The price: has, add and delete look in every chunk (16 at a million), each a cache miss in a
// large table; over a 1M-object sync that measured about a sixth of the process's CPU in has().
// Chunks found by a hash of the value would cost one lookup, but objects have no hash to read.
// Index buckets add each new object version with addFresh, which looks in no chunk at all.

/** CHUNK_SIZE bounds one chunk: rehashing 65,536 entries takes a few ms. */
export const CHUNK_SIZE = 65_536;

/** ChunkedSet is a Set of values made of chunks of at most chunkSize entries. */
export class ChunkedSet<T> implements Iterable<T> {
  private readonly chunks: Set<T>[] = [];
  private total = 0;
  /** lastAdded is the value appended last while it is still held (see addFresh). */
  private lastAdded: T | undefined;

  /** The constructor adds values one by one, as a Set's does; a large distinct list goes through fromDistinct. */
  constructor(values: Iterable<T> = [], private readonly chunkSize = CHUNK_SIZE) {
    for (const value of values) this.add(value);
  }

  /**
   * fromDistinct builds a set of values the caller knows hold no repeats (a load's grouping
   * drops them as it goes): each value is hashed once, into its chunk, without a search.
   */
  static fromDistinct<T>(values: readonly T[], chunkSize = CHUNK_SIZE): ChunkedSet<T> {
    const set = new ChunkedSet<T>([], chunkSize);
    for (let start = 0; start < values.length; start += chunkSize) set.chunks.push(new Set(values.slice(start, start + chunkSize)));
    set.total = values.length;
    set.lastAdded = values[values.length - 1];
    return set;
  }

  get size(): number {
    return this.total;
  }

  has(value: T): boolean {
    for (const chunk of this.chunks) if (chunk.has(value)) return true;
    return false;
  }

  add(value: T): this {
    if (!this.has(value)) this.append(value);
    return this;
  }

  /**
   * addFresh adds a value the caller knows the set does not hold, unless as the value added last
   * (an index update may list one new object version under a value twice): no chunk is searched,
   * where add looks in every chunk.
   */
  addFresh(value: T): this {
    if (value !== this.lastAdded) this.append(value);
    return this;
  }

  /** append adds a value known to be absent. */
  private append(value: T): void {
    let last = this.chunks[this.chunks.length - 1];
    if (last === undefined || last.size >= this.chunkSize) {
      last = new Set<T>();
      this.chunks.push(last);
    }
    last.add(value);
    this.total++;
    this.lastAdded = value;
  }

  delete(value: T): boolean {
    for (let i = 0; i < this.chunks.length; i++) {
      const chunk = this.chunks[i] as Set<T>;
      if (!chunk.delete(value)) continue;
      this.total--;
      if (value === this.lastAdded) this.lastAdded = undefined;
      if (chunk.size === 0) this.chunks.splice(i, 1);
      return true;
    }
    return false;
  }

  /** toArray lists the values in order, in one array. */
  toArray(): T[] {
    const out = new Array<T>(this.total);
    let i = 0;
    for (const chunk of this.chunks) for (const value of chunk) out[i++] = value;
    return out;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (const chunk of this.chunks) yield* chunk;
  }
}
