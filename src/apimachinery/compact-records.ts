// Small records (metadata, labels, annotations) that a store keeps for as long as their object
// lives, rebuilt so that V8 holds every property inside the object. A record built by adding
// keys one at a time ({ name } then uid, resourceVersion, ...; a spread then computed keys) keeps
// the keys past the first few in a separate property array, which V8 grows three slots at a time:
// 30-40 bytes more per record than the same keys inside the object, three records per replicated
// copy. A record cloned (spread) from a template that JSON.parse built has the template's layout,
// with every key inside the object, and writing the values over the template's keeps it.

/** MAX_KEYS: records with more keys are left as they are (JSON.parse would not keep them in-object either). */
const MAX_KEYS = 32;

/** MIN_KEYS: a record built from `{}` holds four keys inside the object already. */
const MIN_KEYS = 5;

/** MAX_SHAPES bounds the templates kept: key lists come from users' labels, so they are not a closed set. */
const MAX_SHAPES = 1024;

type AnyRecord = Record<string, unknown>;

/** CompactRecords rebuilds records with every property inside the object, one template per list of keys. */
export class CompactRecords {
  readonly #templates = new Map<string, AnyRecord>();

  /**
   * compact returns a record with the same own keys, in the same order, and the same values
   * (taken by reference), laid out compactly; or the record itself when that would not help.
   */
  compact<T extends object>(record: T): T {
    const keys = Object.keys(record);
    if (keys.length < MIN_KEYS || keys.length > MAX_KEYS) return record;
    const template = this.#templateOf(keys);
    if (template === undefined) return record;
    const out: AnyRecord = { ...template };
    for (const key of keys) out[key] = (record as AnyRecord)[key];
    return out as T;
  }

  #templateOf(keys: readonly string[]): AnyRecord | undefined {
    const signature = keys.join('\u0000');
    const known = this.#templates.get(signature);
    if (known !== undefined || this.#templates.size >= MAX_SHAPES) return known;
    // '__proto__' would be the prototype, not a key, when compact writes it; index-like keys are
    // elements, kept apart from properties anyway.
    if (keys.some((key) => key === '__proto__' || /^\d/.test(key))) return undefined;
    const template = JSON.parse(JSON.stringify(Object.fromEntries(keys.map((key) => [key, null])))) as AnyRecord;
    this.#templates.set(signature, template);
    return template;
  }
}
