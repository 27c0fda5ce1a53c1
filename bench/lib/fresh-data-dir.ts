// Each benchmarked cachegate gets a data directory of its own, empty, in the temporary
// directory: state left by an earlier run (or another bench running at the same time) would
// otherwise be loaded at start, or hold the database file.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** freshDataDir is the environment that points a cachegate process at a new, empty data directory. */
export function freshDataDir(): { CACHEGATE_DATA_DIR: string } {
  return { CACHEGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'cachegate-bench-')) };
}
