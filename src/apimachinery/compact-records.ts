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

/** Shape is one list of keys and the template built for it. */
interface Shape {
  readonly keys: readonly string[];
  readonly template: AnyRecord;
}

/** CompactRecords rebuilds records with every property inside the object, one template per list of keys. */
export class CompactRecords {
  /**
   * Shapes by their first key, compared key by key: every stored write compacts a few records, and
   * joining the keys into one lookup string was a kilobyte of garbage per replicated copy.
   */
  readonly #shapes = new Map<string, Shape[]>();
  #size = 0;

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
    const first = keys[0] ?? '';
    const shapes = this.#shapes.get(first);
    const known = shapes === undefined ? undefined : foundShape(shapes, keys);
    if (known !== undefined) return known.template;
    if (this.#size >= MAX_SHAPES) return undefined;
    // '__proto__' would be the prototype, not a key, when compact writes it; index-like keys are
    // elements, kept apart from properties anyway.
    if (keys.some((key) => key === '__proto__' || /^\d/.test(key))) return undefined;
    const template = JSON.parse(JSON.stringify(Object.fromEntries(keys.map((key) => [key, null])))) as AnyRecord;
    const shape = { keys, template };
    if (shapes === undefined) this.#shapes.set(first, [shape]);
    else shapes.push(shape);
    this.#size++;
    return template;
  }
}

/**
 * foundShape finds the shape of keys among shapes that share their first key, and moves it to the
 * front: the records of one kind of object come in a handful of shapes, which stay first.
 */
function foundShape(shapes: Shape[], keys: readonly string[]): Shape | undefined {
  for (let i = 0; i < shapes.length; i++) {
    const shape = shapes[i] as Shape;
    if (!sameKeys(shape.keys, keys)) continue;
    if (i > 0) {
      shapes.splice(i, 1);
      shapes.unshift(shape);
    }
    return shape;
  }
  return undefined;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
