// Objects parsed from a source repeat themselves: the labels of every pod of a deployment, the
// kcp.io/cluster annotation of every object of a logical cluster, container images, resource
// requests, ports, env entries, timestamps of objects created in one burst. JSON.parse gives each
// occurrence its own copy; V8 shares only string values of up to 10 characters. A cache keeps its
// objects deep-frozen for as long as they exist, so one frozen copy of a repeated value can stand
// for all of them: SharedValues freezes a freshly parsed object and, on the way, replaces each
// repeated string and each repeated record (an object or array of a few entries, each a short
// primitive, a string seen before or a record seen before) with the copy it saw first. Records are
// found by their JSON text.
//
// The tables are bounded: each holds two generations, a generation ending at GENERATION entries or
// GENERATION_CHARS characters of keys, and a value found in the older one moves to the newer, so
// values that keep repeating stay while unique ones (uids, names) age out. A value is never changed,
// only replaced by an equal one.

/** MIN_STRING: V8's JSON parser already shares string values shorter than this. */
const MIN_STRING = 11;

/** MAX_STRING: longer strings (certificates, scripts) rarely repeat, and hashing them costs more. */
const MAX_STRING = 256;

/** MAX_RECORD_ENTRIES: larger records rarely repeat whole. */
const MAX_RECORD_ENTRIES = 16;

/** MAX_KEY: a record whose JSON text may be longer is not shared (its key would cost about what it saves). */
const MAX_KEY = 512;

/** GENERATION is the number of entries of a table's newer generation before it becomes the older one. */
export const GENERATION = 16_384;

/** GENERATION_CHARS bounds the key characters of one generation (at most twice this is held). */
const GENERATION_CHARS = 4 * 2 ** 20;

/** OWN_META_FIELDS are the fields of an object's metadata whose values are that object's alone. */
const OWN_META_FIELDS: ReadonlySet<string> = new Set(['name', 'generateName', 'uid', 'resourceVersion', 'selfLink']);

/** SharedTable maps keys to the first value seen for them, over two bounded generations. */
class SharedTable<V> {
  #newer = new Map<string, V>();
  #older = new Map<string, V>();
  #newerChars = 0;

  /** find returns the value kept for key (moving it to the newer generation), or undefined. */
  find(key: string): V | undefined {
    const kept = this.#newer.get(key);
    if (kept !== undefined) return kept;
    const older = this.#older.get(key);
    if (older !== undefined) this.remember(key, older);
    return older;
  }

  /** remember keeps value for key. */
  remember(key: string, value: V): void {
    if (this.#newer.size >= GENERATION || this.#newerChars >= GENERATION_CHARS) {
      this.#older = this.#newer;
      this.#newer = new Map();
      this.#newerChars = 0;
    }
    this.#newer.set(key, value);
    this.#newerChars += key.length;
  }

  get size(): number {
    return this.#newer.size + this.#older.size;
  }
}

/** SharedValues deep-freezes parsed JSON values, sharing repeated strings and records between them. */
export class SharedValues {
  readonly #strings = new SharedTable<string>();
  readonly #records = new SharedTable<object>();
  /** keys: the JSON length of every shared record seen twice, so the records holding it can be shared too. */
  readonly #keys = new WeakMap<object, number>();

  /**
   * freeze deep-freezes value, which the caller owns and no one else holds (a parse result), and
   * returns what to keep in its place: value itself, or for a shareable record an equal frozen one
   * seen before. Values already frozen are kept as they are, without a walk.
   */
  freeze<T>(value: T): T {
    return this.#walk(value) as T;
  }

  /** size is the number of strings and records remembered (at most four generations). */
  get size(): number {
    return this.#strings.size + this.#records.size;
  }

  #walk(value: unknown): unknown {
    if (typeof value === 'string') return this.#sharedString(value) ?? value;
    if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
    const length = Array.isArray(value) ? this.#walkArray(value as unknown[]) : this.#walkRecord(value as Record<string, unknown>);
    Object.freeze(value);
    if (length < 0 || length > MAX_KEY) return value;
    // Every part is a short primitive, a string seen before or a shared record: the text is short.
    const key = JSON.stringify(value);
    const found = this.#records.find(key);
    if (found === undefined) {
      this.#records.remember(key, value);
      return value;
    }
    // Only a record seen twice can make the records holding it shareable: a record seen once may
    // be unique (an object's metadata, with its uid), and marking it would cost an entry per object.
    this.#keys.set(found, key.length);
    return found;
  }

  /** sharedString returns the copy kept of s if one was seen before, else keeps s and returns undefined. */
  #sharedString(s: string): string | undefined {
    if (s.length < MIN_STRING || s.length > MAX_STRING) return undefined;
    const found = this.#strings.find(s);
    if (found === undefined) this.#strings.remember(s, s);
    return found;
  }

  /** walkArray walks the items and returns the array's estimated JSON length, -1 when it cannot be shared. */
  #walkArray(items: unknown[]): number {
    let length = items.length <= MAX_RECORD_ENTRIES ? 2 : -1;
    for (let i = 0; i < items.length; i++) {
      const part = this.#replaceChild(items, i);
      length = length < 0 || part < 0 ? -1 : length + part + 1;
    }
    return length;
  }

  /** walkRecord walks the entries (for-in: no key array per object) and returns the record's estimated JSON length, -1 when it cannot be shared. */
  #walkRecord(record: Record<string, unknown>): number {
    // An object's metadata names it: its name, uid and version are its own, never worth a lookup.
    const objectMeta = 'uid' in record && 'resourceVersion' in record;
    let length = 2;
    let entries = 0;
    for (const name in record) {
      const part = objectMeta && OWN_META_FIELDS.has(name) ? this.#ownValue(record, name) : this.#replaceChild(record, name);
      entries++;
      length = length < 0 || part < 0 || entries > MAX_RECORD_ENTRIES ? -1 : length + name.length + part + 4;
    }
    return length;
  }

  /**
   * ownValue freezes a value no other object holds (a string is not looked up) and says it cannot
   * be shared. A short string (a resourceVersion, a short name) is one V8's JSON parser
   * internalized: it would sit in V8's string table, one entry per object, for as long as the
   * object lives, and every full collection walks that table twice in its final pause (clearing
   * it, and updating it after compaction). At 2M parsed objects that measured 100-170 ms of each
   * pause against 3 ms with copies; an own copy of the string, outside the table, costs nothing there.
   */
  #ownValue(record: Record<string, unknown>, name: string): number {
    const value = record[name];
    if (typeof value === 'string') {
      if (value.length < MIN_STRING) record[name] = uninternalized(value);
    } else if (typeof value === 'object') {
      this.#walk(value);
    }
    return -1;
  }

  /** replaceChild walks one child, puts what to keep in its place, and returns its lengthOf. */
  #replaceChild(parent: Record<string, unknown> | unknown[], key: string | number): number {
    const slots = parent as Record<string | number, unknown>;
    const child = slots[key];
    // (An own `__proto__` key, which JSON.parse makes, shadows the prototype setter: it is written as a key.)
    if (typeof child === 'string') {
      if (child.length < MIN_STRING) return child.length + 2;
      const found = this.#sharedString(child);
      if (found === undefined) return -1;
      // Equal strings compare equal whichever copy they are: the shared one is always written back.
      slots[key] = found;
      return found.length + 2;
    }
    const kept = this.#walk(child);
    if (kept !== child) slots[key] = kept;
    return this.#lengthOf(kept);
  }

  /**
   * lengthOf estimates the JSON length of a non-string value when it is a part a shared record may
   * hold, else -1: a primitive JSON writes as itself (not undefined, NaN, ±Infinity or -0, which
   * would make different records look equal), or a record seen twice.
   */
  #lengthOf(value: unknown): number {
    switch (typeof value) {
      case 'boolean':
        return 5;
      case 'number':
        return Number.isFinite(value) && !Object.is(value, -0) ? 24 : -1;
      case 'object':
        return value === null ? 4 : (this.#keys.get(value) ?? -1);
      default:
        return -1;
    }
  }
}

/**
 * uninternalized is an equal string V8 has not internalized: short concatenations and slices are
 * new sequential strings, and neither step looks the result up in the string table (an empty
 * string comes back as V8's one empty string).
 */
function uninternalized(s: string): string {
  return (' ' + s).slice(1);
}
