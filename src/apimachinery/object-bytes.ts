// How many bytes of heap a JSON value takes, estimated in one walk, so that whatever retains old
// object versions (event windows, subscription queues) can be bounded by bytes and not only by
// count. The figures approximate V8 on 64-bit Node (no pointer compression), as measured on
// objects made by JSON.parse: a string is a 16-byte header plus one byte per character (two-byte
// strings are counted as one-byte: telling them apart would read every character); an object is
// a 24-byte header plus a slot per field, 8 bytes while V8 keeps it in fast mode, about 48 bytes
// once it has 128 fields or more and turns into a hash table (a ConfigMap with hundreds of keys
// takes several times its JSON size); an array is a 32-byte header plus 8 bytes per element;
// numbers, booleans and null live in their slot. Values shared between objects are counted in
// each, so the estimate errs on the high side for structurally shared versions.

const STRING_BYTES = 16;
const OBJECT_BYTES = 24;
const FIELD_BYTES = 8;
const DICTIONARY_FIELD_BYTES = 48;
/** DICTIONARY_FIELDS: from this many fields on, JSON.parse makes a dictionary-mode object. */
const DICTIONARY_FIELDS = 128;
const ARRAY_BYTES = 32;
const ELEMENT_BYTES = 8;

/** estimatedBytes estimates the heap a JSON value takes; it walks the whole value and changes nothing. */
export function estimatedBytes(value: unknown): number {
  return walk(value, false);
}

/**
 * deepFreezeMeasured deep-freezes a JSON value as deepFreeze does and returns its estimated bytes,
 * in one walk. Unlike deepFreeze it also walks into subtrees that are frozen already (only to count
 * them), so a version built around frozen parts of another one (an update that keeps the stored
 * spec, a CachedObject wrapping a frozen original) is counted whole.
 */
export function deepFreezeMeasured(value: unknown): number {
  return walk(value, true);
}

function walk(value: unknown, freeze: boolean): number {
  if (typeof value === 'string') return STRING_BYTES + value.length;
  if (typeof value !== 'object' || value === null) return 0;
  // Below a frozen value everything is frozen already (deepFreeze's invariant): only count there.
  const freezeHere = freeze && !Object.isFrozen(value);
  let bytes: number;
  if (Array.isArray(value)) {
    bytes = ARRAY_BYTES + ELEMENT_BYTES * value.length;
    for (let i = 0; i < value.length; i++) bytes += walk(value[i], freezeHere);
  } else {
    // for-in walks JSON objects without allocating a key array (Object.keys would, per object).
    let fields = 0;
    bytes = OBJECT_BYTES;
    for (const key in value) {
      fields++;
      bytes += walk((value as Record<string, unknown>)[key], freezeHere);
    }
    bytes += fields * (fields < DICTIONARY_FIELDS ? FIELD_BYTES : DICTIONARY_FIELD_BYTES);
  }
  // Children first, then the parent, as deepFreeze does: a frozen value is always frozen deeply.
  if (freezeHere) Object.freeze(value);
  return bytes;
}
