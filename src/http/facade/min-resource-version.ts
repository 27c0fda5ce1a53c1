// The `minResourceVersion` query parameter of the read routes (repeatable): its values, write
// tokens for the read model to wait on before the read (src/read/min-resource-version.ts says
// what they mean; a malformed one is the read model's BadRequest).

/** MinResourceVersionQuery is the part of a read route's query this file reads. */
export interface MinResourceVersionQuery {
  readonly minResourceVersion?: string | readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

/** minResourceVersions lists the values given (none → an empty list, shared: reads run this per request). */
export function minResourceVersions(query: MinResourceVersionQuery): readonly string[] {
  const value = query.minResourceVersion;
  if (value === undefined) return NONE;
  return typeof value === 'string' ? [value] : value;
}
