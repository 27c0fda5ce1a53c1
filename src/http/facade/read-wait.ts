// What a read route waits for before it reads, from its query: `minResourceVersion` (repeatable;
// write tokens, src/read/min-resource-version.ts says what they mean, a malformed one is the read
// model's BadRequest) and `consistent` (false: answer from what this replica holds now).

import type { ReadWait } from '../../read/read-model.js';

/** ReadWaitQuery is the part of a read route's query this file reads. */
export interface ReadWaitQuery {
  readonly minResourceVersion?: string | readonly string[];
  /** consistent is coerced to a boolean by the route's schema; absent means true. */
  readonly consistent?: boolean;
}

const NONE: readonly string[] = Object.freeze([]);
const CONSISTENT: ReadWait = Object.freeze({ minResourceVersions: NONE, consistent: true });
const CURRENT: ReadWait = Object.freeze({ minResourceVersions: NONE, consistent: false });

/** readWaitOf reads the query (shared objects for the usual queries: reads run this per request). */
export function readWaitOf(query: ReadWaitQuery): ReadWait {
  const value = query.minResourceVersion;
  const consistent = query.consistent !== false;
  if (value === undefined) return consistent ? CONSISTENT : CURRENT;
  return { minResourceVersions: typeof value === 'string' ? [value] : value, consistent };
}
