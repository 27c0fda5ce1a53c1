// Objects parsed from a source repeat themselves: the labels of every pod of a deployment, the
// kcp.io/cluster annotation of every object of a logical cluster, container images, resource
// requests, ports, env entries, timestamps of objects created in one burst. JSON.parse gives each
// occurrence its own copy; V8 shares only string values of up to 10 characters. A cache keeps its
// objects deep-frozen for as long as they exist, so one frozen copy of a repeated value can stand
// for all of them: SharedValues freezes a freshly parsed object and, on the way, replaces each
// repeated string and each repeated record (an object or array of a few entries, each a short
// primitive, a string seen before or a record seen before) with the copy it saw first.
//
// A record is found top-down, by a hash of its whole content (record-identity.ts), and compared in
// full with the one its hash picks: a widget's spec that repeats is matched whole, without a lookup
// for each of the records and nested strings inside it. Only its own strings are looked up first,
// because a string seen for the first time (a name, a uid) says the record is likely unique and
// not worth hashing. Looking every record up bottom-up by its JSON text, as this once did, cost a
// text and a lookup per nested record: a decoded widget took 2.2-2.8 times as long as without
// sharing, most of a restart's decode time and a large part of each synced object's.
//
// The tables are bounded: each holds two generations, a generation ending at GENERATION entries or
// GENERATION_CHARS characters, and a value found in the older one moves to the newer, so values
// that keep repeating stay while unique ones (uids, names) age out. A value is never changed, only
// replaced by an equal one.

import { RecordIdentity, UNSHAREABLE } from './record-identity.js';

/** MIN_STRING: V8's JSON parser already shares string values shorter than this. */
const MIN_STRING = 11;

/** MAX_STRING: longer strings (certificates, scripts) rarely repeat, and looking them up costs more. */
const MAX_STRING = 256;

/** MAX_RECORD_ENTRIES: larger records rarely repeat whole. */
const MAX_RECORD_ENTRIES = 16;

/** MAX_RECORD_VALUES: a record holding more values, all the way down, rarely repeats whole, and costs more to hash. */
const MAX_RECORD_VALUES = 64;

/** GENERATION is the number of entries of a table's newer generation before it becomes the older one. */
export const GENERATION = 16_384;

/** GENERATION_CHARS bounds the characters of the strings, or of the records, one generation holds (at most twice this is held). */
const GENERATION_CHARS = 4 * 2 ** 20;

/** OWN_META_FIELDS are the fields of an object's metadata whose values are that object's alone. */
const OWN_META_FIELDS: ReadonlySet<string> = new Set(['name', 'generateName', 'uid', 'resourceVersion', 'selfLink']);

/** SharedTable maps keys to the first value seen for them, over two bounded generations. */
class SharedTable<K, V> {
  #newer = new Map<K, V>();
  #older = new Map<K, V>();
  #newerWeight = 0;

  constructor(private readonly maxWeight: number) {}

  /** find returns the value kept for key (moving it to the newer generation), or undefined. */
  find(key: K, weight: number): V | undefined {
    const kept = this.#newer.get(key);
    if (kept !== undefined) return kept;
    const older = this.#older.get(key);
    if (older !== undefined) this.remember(key, older, weight);
    return older;
  }

  /** remember keeps value for key; weight counts toward the generation's maxWeight. */
  remember(key: K, value: V, weight: number): void {
    if (this.#newer.size >= GENERATION || this.#newerWeight >= this.maxWeight) {
      this.#older = this.#newer;
      this.#newer = new Map();
      this.#newerWeight = 0;
    }
    this.#newer.set(key, value);
    this.#newerWeight += weight;
  }

  get size(): number {
    return this.#newer.size + this.#older.size;
  }
}

/** SharedValues deep-freezes parsed JSON values, sharing repeated strings and records between them. */
export class SharedValues {
  readonly #strings = new SharedTable<string, string>(GENERATION_CHARS);
  readonly #records = new SharedTable<number, object>(GENERATION_CHARS);
  readonly #identity = new RecordIdentity({ maxEntries: MAX_RECORD_ENTRIES, maxValues: MAX_RECORD_VALUES, maxString: MAX_STRING, ownRecord: isObjectMeta });

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
    const slots = value as Record<string, unknown>;
    const array = Array.isArray(value);
    // An object's metadata names it: its name, uid and version are its own, and it is never shared.
    if (!array && isObjectMeta(slots)) return this.#walkObjectMeta(slots);
    // Its own strings first: one seen for the first time (a name, a uid) makes the record likely
    // unique, and then it is not worth hashing; otherwise they are the shared copies by now, which
    // `same` compares by reference.
    const stringsSeen = array ? this.#shareItemStrings(value as unknown[]) : this.#shareStrings(slots);
    const hash = stringsSeen ? this.#identity.hash(value) : UNSHAREABLE;
    const size = hash === UNSHAREABLE ? 0 : this.#identity.lastSize;
    const found = hash === UNSHAREABLE ? undefined : this.#records.find(hash, size);
    if (found !== undefined && this.#identity.same(found, value)) return found;
    const repeated = (array ? this.#shareItemRecords(value as unknown[]) : this.#shareRecords(slots)) && stringsSeen;
    Object.freeze(value);
    // Only a record whose parts were all seen before is kept: one holding a string or a record seen
    // for the first time may be unique, and keeping it would cost an entry per object. A record
    // whose hash another one holds stays apart; the first keeps the entry.
    if (repeated && hash !== UNSHAREABLE && found === undefined) this.#records.remember(hash, value, size);
    return value;
  }

  /** sharedString returns the copy kept of s if one was seen before, else keeps s and returns undefined. */
  #sharedString(s: string): string | undefined {
    if (s.length < MIN_STRING || s.length > MAX_STRING) return undefined;
    const found = this.#strings.find(s, s.length);
    if (found === undefined) this.#strings.remember(s, s, s.length);
    return found;
  }

  /**
   * shareStrings puts the shared copy in place of each string entry of a record seen before, and
   * tells whether every one was (short ones always count as seen). for-in: no key array per object.
   */
  #shareStrings(slots: Record<string, unknown>): boolean {
    let seen = true;
    for (const key in slots) seen = this.#shareStringAt(slots, key) && seen;
    return seen;
  }

  /** shareItemStrings is shareStrings for an array (for-in would visit its indexes as strings, the slow way). */
  #shareItemStrings(items: unknown[]): boolean {
    let seen = true;
    for (let i = 0; i < items.length; i++) seen = this.#shareStringAt(items, i) && seen;
    return seen;
  }

  /** shareRecords walks the record entries of a record, puts what to keep in their place, and tells whether every one was seen before. */
  #shareRecords(slots: Record<string, unknown>): boolean {
    let repeated = true;
    for (const key in slots) repeated = this.#shareRecordAt(slots, key) && repeated;
    return repeated;
  }

  /** shareItemRecords is shareRecords for an array. */
  #shareItemRecords(items: unknown[]): boolean {
    let repeated = true;
    for (let i = 0; i < items.length; i++) repeated = this.#shareRecordAt(items, i) && repeated;
    return repeated;
  }

  /** shareStringAt puts the shared copy of a string entry in its place; false when the string was not seen before. Other entries: true. */
  #shareStringAt(parent: Record<string, unknown> | unknown[], key: string | number): boolean {
    const slots = parent as Record<string | number, unknown>;
    // (An own `__proto__` key, which JSON.parse makes, shadows the prototype setter: it is written as a key.)
    const child = slots[key];
    if (typeof child !== 'string' || child.length < MIN_STRING) return true;
    const found = this.#sharedString(child);
    if (found === undefined) return false;
    // Equal strings compare equal whichever copy they are: the shared one is always written back.
    slots[key] = found;
    return true;
  }

  /** shareRecordAt walks a record or array entry and puts what to keep in its place; false when it was not seen before. Other entries: true. */
  #shareRecordAt(parent: Record<string, unknown> | unknown[], key: string | number): boolean {
    const slots = parent as Record<string | number, unknown>;
    const child = slots[key];
    if (typeof child !== 'object' || child === null) return true;
    const kept = this.#walk(child);
    if (kept === child) return false;
    slots[key] = kept;
    return true;
  }

  /** walkObjectMeta walks an object's metadata, its own fields without a lookup, and freezes it. */
  #walkObjectMeta(meta: Record<string, unknown>): Record<string, unknown> {
    for (const name in meta) {
      if (OWN_META_FIELDS.has(name)) {
        this.#ownValue(meta, name);
      } else {
        this.#shareStringAt(meta, name);
        this.#shareRecordAt(meta, name);
      }
    }
    return Object.freeze(meta);
  }

  /**
   * ownValue freezes a value no other object holds (a string is not looked up). A short string (a
   * resourceVersion, a short name) is one V8's JSON parser internalized: it would sit in V8's
   * string table, one entry per object, for as long as the object lives, and every full collection
   * walks that table twice in its final pause (clearing it, and updating it after compaction). At
   * 2M parsed objects that measured 100-170 ms of each pause against 3 ms with copies; an own copy
   * of the string, outside the table, costs nothing there.
   */
  #ownValue(record: Record<string, unknown>, name: string): void {
    const value = record[name];
    if (typeof value === 'string') {
      if (value.length < MIN_STRING) record[name] = uninternalized(value);
    } else if (typeof value === 'object') {
      this.#walk(value);
    }
  }
}

/** isObjectMeta tells an object's metadata (it has a uid and a resourceVersion) from other records. */
function isObjectMeta(record: Record<string, unknown>): boolean {
  return 'uid' in record && 'resourceVersion' in record;
}

/**
 * uninternalized is an equal string V8 has not internalized: short concatenations and slices are
 * new sequential strings, and neither step looks the result up in the string table (an empty
 * string comes back as V8's one empty string).
 */
function uninternalized(s: string): string {
  return (' ' + s).slice(1);
}
