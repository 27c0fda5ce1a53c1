// A string-keyed map that iterates in insertion order, as a Map does, and never rehashes all its
// entries in one call, as a Map does each time it doubles. An informer keeps the names of a
// namespace in such a map. The order matters: a list is applied, and its copies written, in the
// source's name order, which keeps a local backend's inserts appending. The one rehash of a Map
// growing past 524,288 names stalled the event loop for about 190 ms during a million-object sync,
// and the rehashes at two and four million for longer.
//
// Up to SPLIT_AT keys it is one Map. Past that, the keys move once into a ChunkedMap from key to
// slot (whose chunks double one at a time, see chunked-map.ts), and the values into slots linked
// in insertion order (in blocks of Int32Arrays), so iteration follows the links. A deleted slot is reused by
// the next insert, which is linked at the end, as a Map moves a re-added key to the end.

import { ChunkedMap, SPLIT_AT } from './chunked-map.js';

const NONE = -1;

/**
 * BLOCK_BITS: values and links live in blocks of 2^BLOCK_BITS slots. A block is added as the map
 * grows and never copied: growing one array of a million slots copied it, and faulted in the new
 * one's pages, in a single call of 40-60 ms.
 */
const BLOCK_BITS = 14;
const BLOCK = 2 ** BLOCK_BITS;
const IN_BLOCK = BLOCK - 1;

/** OrderedChunkedMap is a Map from strings to V in insertion order that splits into chunks once it holds more than splitAt keys. */
export class OrderedChunkedMap<V> {
  #whole: Map<string, V> | undefined = new Map();
  readonly #slotOf = new ChunkedMap<number>(0);
  readonly #values: (V | undefined)[][] = [];
  readonly #next: Int32Array[] = [];
  readonly #prev: Int32Array[] = [];
  #slots = 0;
  #head = NONE;
  #tail = NONE;
  readonly #free: number[] = [];

  constructor(private readonly splitAt = SPLIT_AT) {}

  get size(): number {
    return this.#whole?.size ?? this.#slotOf.size;
  }

  get(key: string): V | undefined {
    if (this.#whole !== undefined) return this.#whole.get(key);
    const slot = this.#slotOf.get(key);
    return slot === undefined ? undefined : this.#value(slot);
  }

  /** set adds key at the end, or replaces its value where it is. */
  set(key: string, value: V): this {
    const whole = this.#whole;
    if (whole !== undefined) {
      whole.set(key, value);
      if (whole.size > this.splitAt) this.#split(whole);
      return this;
    }
    const slot = this.#slotOf.get(key);
    if (slot !== undefined) this.#setValue(slot, value);
    else this.#slotOf.set(key, this.#append(value));
    return this;
  }

  delete(key: string): boolean {
    if (this.#whole !== undefined) return this.#whole.delete(key);
    const slot = this.#slotOf.get(key);
    if (slot === undefined) return false;
    this.#slotOf.delete(key);
    this.#unlink(slot);
    return true;
  }

  /** values gives the values in insertion order. */
  *values(): IterableIterator<V> {
    if (this.#whole !== undefined) {
      yield* this.#whole.values();
      return;
    }
    for (let slot = this.#head; slot !== NONE; slot = this.#link(this.#next, slot)) yield this.#value(slot) as V;
  }

  // Moves the entries out of the one Map, in its order: a one-off cost of splitAt keys.
  #split(whole: Map<string, V>): void {
    this.#whole = undefined;
    for (const [key, value] of whole) this.#slotOf.set(key, this.#append(value));
  }

  #append(value: V): number {
    const slot = this.#free.pop() ?? this.#newSlot();
    this.#setValue(slot, value);
    this.#setLink(this.#next, slot, NONE);
    this.#setLink(this.#prev, slot, this.#tail);
    if (this.#tail === NONE) this.#head = slot;
    else this.#setLink(this.#next, this.#tail, slot);
    this.#tail = slot;
    return slot;
  }

  #unlink(slot: number): void {
    const before = this.#link(this.#prev, slot);
    const after = this.#link(this.#next, slot);
    if (before === NONE) this.#head = after;
    else this.#setLink(this.#next, before, after);
    if (after === NONE) this.#tail = before;
    else this.#setLink(this.#prev, after, before);
    // Cleared, so the value can be collected while its slot waits to be reused.
    this.#setValue(slot, undefined);
    this.#free.push(slot);
  }

  #newSlot(): number {
    const slot = this.#slots++;
    if ((slot & IN_BLOCK) === 0) {
      this.#values.push(new Array<V | undefined>(BLOCK).fill(undefined));
      this.#next.push(new Int32Array(BLOCK));
      this.#prev.push(new Int32Array(BLOCK));
    }
    return slot;
  }

  #value(slot: number): V | undefined {
    return (this.#values[slot >>> BLOCK_BITS] as (V | undefined)[])[slot & IN_BLOCK];
  }

  #setValue(slot: number, value: V | undefined): void {
    (this.#values[slot >>> BLOCK_BITS] as (V | undefined)[])[slot & IN_BLOCK] = value;
  }

  #link(links: readonly Int32Array[], slot: number): number {
    return (links[slot >>> BLOCK_BITS] as Int32Array)[slot & IN_BLOCK] as number;
  }

  #setLink(links: readonly Int32Array[], slot: number, to: number): void {
    (links[slot >>> BLOCK_BITS] as Int32Array)[slot & IN_BLOCK] = to;
  }
}
