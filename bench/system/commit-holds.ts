// How long the measured process's local-backend commits held its event loop during a run, from
// its cachegate_storage_commit_seconds histogram read before and after: how many commits there
// were, how many held the loop longer than SLOW_COMMIT_MS, and the bucket bound the longest fits
// under. A lag row then says whether a tail came from commits (disk) or from elsewhere.

const METRIC = 'cachegate_storage_commit_seconds_bucket';

/** SLOW_COMMIT_MS: a commit holding the loop longer is counted as slow (half the lag target). */
export const SLOW_COMMIT_MS = 25;

/** CommitHolds are one run's commits; undefined for a backend without the histogram's series. */
export interface CommitHolds {
  readonly commits: number;
  readonly slow: number;
  /** longestAtMostMs is the smallest bucket bound every commit of the run fits under (Infinity: above the largest). */
  readonly longestAtMostMs: number;
}

/** Buckets maps a bucket's upper bound in seconds to its cumulative count. */
type Buckets = ReadonlyMap<number, number>;

/** commitBuckets scrapes the histogram's cumulative buckets; empty without a local backend. */
export async function commitBuckets(baseUrl: string): Promise<Buckets> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const buckets = new Map<number, number>();
  for (const m of text.matchAll(new RegExp(`^${METRIC}\\{le="([^"]+)",backend="local"\\} (\\d+)$`, 'gm'))) {
    buckets.set(m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2]));
  }
  return buckets;
}

/** commitHoldsBetween is what happened between two scrapes. */
export function commitHoldsBetween(before: Buckets, after: Buckets): CommitHolds | undefined {
  if (after.size === 0) return undefined;
  const delta = (le: number): number => (after.get(le) ?? 0) - (before.get(le) ?? 0);
  const commits = delta(Infinity);
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const fitsAll = bounds.find((le) => delta(le) === commits) ?? Infinity;
  const slowBound = bounds.find((le) => le * 1000 >= SLOW_COMMIT_MS) ?? Infinity;
  return { commits, slow: commits - delta(slowBound), longestAtMostMs: fitsAll * 1000 };
}
