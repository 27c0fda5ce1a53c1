// Telling parsed JSON records apart for SharedValues' record table. A record's hash covers its whole
// content: each key, and each value down to the leaves (FNV-1a over strings, murmur3's round to
// combine the parts). A hash only picks a candidate;
// `same` then compares the two records in full, so a collision costs a missed share, never a
// wrong one.

/** FNV_OFFSET and FNV_PRIME are FNV-1a's 32-bit constants. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** RECORD_SEED and ARRAY_SEED start the hashes of the two kinds of record, so `{}` and `[]` differ. */
const RECORD_SEED = FNV_OFFSET;
const ARRAY_SEED = Math.imul(FNV_OFFSET, FNV_PRIME);

/** Hashes of the JSON constants. */
const TRUE_HASH = 0x7f4a7c15;
const FALSE_HASH = 0x2545f491;
const NULL_HASH = 0x5bd1e995;

/** UNSHAREABLE is the hash of a value no record may be shared for. */
export const UNSHAREABLE = -1;

/** RecordLimits say which records are worth sharing at all. */
export interface RecordLimits {
  /** maxEntries: a record (or array) with more entries is not shared, nor a record holding it. */
  readonly maxEntries: number;
  /** maxValues: a record holding more values in all (its own, and its records' all the way down) is not shared. */
  readonly maxValues: number;
  /** maxString: a longer string keeps its record from being shared. */
  readonly maxString: number;
  /** ownRecord: records that belong to one object alone (an object's metadata) are never shared. */
  readonly ownRecord: (record: Record<string, unknown>) => boolean;
}

/** RecordIdentity hashes and compares records; it keeps scratch buffers, so each SharedValues has its own. */
export class RecordIdentity {
  readonly #limits: RecordLimits;
  readonly #float = new Float64Array(1);
  readonly #words = new Int32Array(this.#float.buffer);
  /** keysAt[depth] holds one record's keys while `same` compares it at that depth. */
  readonly #keysAt: string[][] = [];
  /** values left to the hash being computed, and its record's characters so far. */
  #valuesLeft = 0;
  #chars = 0;

  constructor(limits: RecordLimits) {
    this.#limits = limits;
  }

  /**
   * hash is a 30-bit hash of a record's whole content, or UNSHAREABLE when the record may not be
   * shared: too many entries or too long a string anywhere in it, an object's own record, or a
   * value JSON would write like a different one (undefined, NaN, ±Infinity, -0).
   */
  hash(record: object): number {
    this.#valuesLeft = this.#limits.maxValues;
    this.#chars = 0;
    const hash = this.#recordHash(record);
    return hash === UNSHAREABLE ? UNSHAREABLE : finish(hash);
  }

  /** lastSize is about the JSON length of the record last hashed (its keys' and strings' characters, and a few per value). */
  get lastSize(): number {
    return this.#chars;
  }

  /** same tells whether two records are equal: the same kind, keys in the same order, equal values all the way down. */
  same(a: object, b: object, depth = 0): boolean {
    if (Array.isArray(b)) return Array.isArray(a) && this.#sameItems(a, b, depth);
    if (Array.isArray(a)) return false;
    const keys = (this.#keysAt[depth] ??= []);
    let n = 0;
    for (const name in b) keys[n++] = name;
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    let i = 0;
    for (const name in left) {
      if (i >= n || keys[i] !== name || !this.#sameValue(left[name], right[name], depth)) return false;
      i++;
    }
    return i === n;
  }

  #sameItems(a: readonly unknown[], b: readonly unknown[], depth: number): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!this.#sameValue(a[i], b[i], depth)) return false;
    return true;
  }

  // Strings and numbers compare by value; -0 and NaN never get here (hash refused their records).
  #sameValue(a: unknown, b: unknown, depth: number): boolean {
    if (a === b) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    return this.same(a, b, depth + 1);
  }

  #recordHash(record: object): number {
    if (Array.isArray(record)) {
      if (record.length > this.#limits.maxEntries) return UNSHAREABLE;
      let hash = ARRAY_SEED;
      for (let i = 0; i < record.length; i++) {
        const part = this.#valueHash(record[i]);
        if (part === UNSHAREABLE) return UNSHAREABLE;
        hash = mix(hash, part);
      }
      return hash;
    }
    const entries = record as Record<string, unknown>;
    if (this.#limits.ownRecord(entries)) return UNSHAREABLE;
    let hash = RECORD_SEED;
    let n = 0;
    for (const name in entries) {
      if (++n > this.#limits.maxEntries) return UNSHAREABLE;
      this.#chars += name.length;
      const part = this.#valueHash(entries[name]);
      if (part === UNSHAREABLE) return UNSHAREABLE;
      hash = mix(mix(hash, keyHash(name)), part);
    }
    return hash;
  }

  #valueHash(value: unknown): number {
    if (--this.#valuesLeft < 0) return UNSHAREABLE;
    this.#chars += 4;
    switch (typeof value) {
      case 'string':
        this.#chars += value.length;
        return value.length > this.#limits.maxString ? UNSHAREABLE : stringHash(value);
      case 'number':
        return Number.isFinite(value) && !Object.is(value, -0) ? this.#numberHash(value) : UNSHAREABLE;
      case 'boolean':
        return value ? TRUE_HASH : FALSE_HASH;
      case 'object':
        return value === null ? NULL_HASH : this.#recordHash(value);
      default:
        return UNSHAREABLE;
    }
  }

  #numberHash(value: number): number {
    if ((value | 0) === value) return Math.imul(value ^ 0x1b873593, FNV_PRIME);
    this.#float[0] = value;
    return Math.imul(Math.imul(this.#words[0] ?? 0, 31) ^ (this.#words[1] ?? 0), FNV_PRIME);
  }
}

/** mix folds a part's 32 bits into a running hash (a round of murmur3): every bit of the part reaches every bit of the hash. */
function mix(hash: number, part: number): number {
  let k = Math.imul(part, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  let h = hash ^ Math.imul(k, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** finish spreads a running hash's bits (murmur3's finalizer) and keeps 30 of them: a small integer, never negative. */
function finish(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h & 0x3fffffff;
}

/**
 * keyHash hashes a key by its length and its first and last characters: keys of one kind of
 * record are few and differ there (`requests`, `limits`), and values carry the rest of the hash.
 */
function keyHash(name: string): number {
  const n = name.length;
  return n === 0 ? 0 : n ^ (name.charCodeAt(0) << 8) ^ (name.charCodeAt(n - 1) << 20);
}

/** stringHash hashes every character of a string (the callers hash strings of at most a few hundred). */
function stringHash(s: string): number {
  let hash = FNV_OFFSET ^ s.length;
  for (let i = 0; i < s.length; i++) hash = Math.imul(hash ^ s.charCodeAt(i), FNV_PRIME);
  return hash;
}
