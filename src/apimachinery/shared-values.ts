// Objects parsed from a source repeat themselves: the labels of every pod of a deployment, the
// kcp.io/cluster annotation of every object of a logical cluster, container images, resource
// requests, ports, env entries, timestamps of objects created in one burst. JSON.parse gives each
// occurrence its own copy; V8 shares only string values of up to 10 characters. A cache keeps its
// objects deep-frozen for as long as they exist, so one frozen copy of a repeated value can stand
// for all of them: SharedValues freezes a freshly parsed object and, on the way, replaces each
// repeated string and each repeated leaf record (an object or array of a few primitives) with the
// copy it saw first.
//
// The tables are bounded: each holds two generations of GENERATION entries, and a value found in
// the older one moves to the newer, so values that keep repeating stay while unique ones (uids,
// names) age out. A value is never changed, only replaced by an equal one.

/** MIN_STRING: V8's JSON parser already shares string values shorter than this. */
const MIN_STRING = 11;

/** MAX_STRING: longer strings (certificates, scripts) rarely repeat, and hashing them costs more. */
const MAX_STRING = 256;

/** MAX_RECORD_KEYS: larger records rarely repeat whole. */
const MAX_RECORD_KEYS = 8;

/** GENERATION is the number of entries of a table's newer generation before it becomes the older one. */
export const GENERATION = 16_384;

/** SharedTable maps keys to the first value seen for them, over two bounded generations. */
class SharedTable<V> {
  #newer = new Map<string, V>();
  #older = new Map<string, V>();

  /** share returns the value kept for key, keeping value when there is none. */
  share(key: string, value: V): V {
    const kept = this.#newer.get(key);
    if (kept !== undefined) return kept;
    const older = this.#older.get(key);
    this.#remember(key, older ?? value);
    return older ?? value;
  }

  get size(): number {
    return this.#newer.size + this.#older.size;
  }

  #remember(key: string, value: V): void {
    if (this.#newer.size >= GENERATION) {
      this.#older = this.#newer;
      this.#newer = new Map();
    }
    this.#newer.set(key, value);
  }
}

/** SharedValues deep-freezes parsed JSON values, sharing repeated strings and leaf records between them. */
export class SharedValues {
  readonly #strings = new SharedTable<string>();
  readonly #records = new SharedTable<object>();

  /**
   * freeze deep-freezes value, which the caller owns and no one else holds (a parse result), and
   * returns what to keep in its place: value itself, or for a leaf record an equal frozen one seen
   * before. Values already frozen are kept as they are, without a walk.
   */
  freeze<T>(value: T): T {
    return this.#walk(value) as T;
  }

  /** size is the number of strings and records remembered (at most four generations). */
  get size(): number {
    return this.#strings.size + this.#records.size;
  }

  #walk(value: unknown): unknown {
    if (typeof value === 'string') {
      return value.length >= MIN_STRING && value.length <= MAX_STRING ? this.#strings.share(value, value) : value;
    }
    if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
    // Index and for-in loops allocate no key array (a sync walks a million objects).
    let leaf = true;
    let size = 0;
    if (Array.isArray(value)) {
      const items = value as unknown[];
      for (let i = 0; i < items.length; i++) leaf = this.#replaceChild(items, i) && leaf;
      size = items.length;
    } else {
      const record = value as Record<string, unknown>;
      for (const key in record) {
        leaf = this.#replaceChild(record, key) && leaf;
        size++;
      }
    }
    Object.freeze(value);
    return leaf && size <= MAX_RECORD_KEYS ? this.#records.share(JSON.stringify(value), value) : value;
  }

  /** replaceChild walks one child, puts what to keep in its place, and tells whether it is a JSON primitive. */
  #replaceChild(parent: Record<string, unknown> | unknown[], key: string | number): boolean {
    const slots = parent as Record<string | number, unknown>;
    const child = slots[key];
    const kept = this.#walk(child);
    // Equal strings compare equal whichever copy they are: a shared one is always written back.
    // (An own `__proto__` key, which JSON.parse makes, shadows the prototype setter: it is written as a key.)
    if (kept !== child || typeof kept === 'string') slots[key] = kept;
    return isJsonPrimitive(kept);
  }
}

// Only values JSON.stringify writes as themselves make a record's key: undefined, NaN or -0 (never
// parsed from JSON, but a caller may build them) would make two different records look equal.
function isJsonPrimitive(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    default:
      return value === null;
  }
}
