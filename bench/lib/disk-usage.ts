// How many bytes a backend's data directory takes on disk: `du -sb` (apparent size, as a
// directory listing shows it), with the largest files named so a figure can say what it is made
// of (an etcd member preallocates its write-ahead log in 64 MiB segments, for one).

import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** DiskUsage is one directory's size and its largest files. */
export interface DiskUsage {
  readonly bytes: number;
  readonly largest: ReadonlyArray<{ readonly path: string; readonly bytes: number }>;
}

/** diskUsage measures dir with `du -sb` and lists its `top` largest files (paths relative to dir). */
export function diskUsage(dir: string, top = 3): DiskUsage {
  const bytes = Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
  const files = filesUnder(dir).map((path) => ({ path: relative(dir, path), bytes: statSync(path).size }));
  return { bytes, largest: files.sort((a, b) => b.bytes - a.bytes).slice(0, top) };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}
