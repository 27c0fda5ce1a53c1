// The arguments every query that reads objects takes to say what it waits for first:
// `minResourceVersion` (write tokens to be replicated, src/read/min-resource-version.ts) and
// `consistent` (false: answer from what this replica holds now; the default reads consistently).

import type { ReadWait } from '../read/read-model.js';

/** ReadWaitArgs are those arguments as GraphQL passes them: each may be null. */
export interface ReadWaitArgs {
  readonly minResourceVersion?: readonly string[] | null;
  readonly consistent?: boolean | null;
}

/** readWaitOf is what a read's arguments ask it to wait for. */
export function readWaitOf(args: ReadWaitArgs): ReadWait {
  return { minResourceVersions: args.minResourceVersion ?? [], consistent: args.consistent !== false };
}
