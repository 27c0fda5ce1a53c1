// Order statistics the benches report: percentiles of latencies and the median of rounds.

/** percentile of an ascending-sorted array (nearest rank below); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

/** medianBy picks the median item by a key (the upper one of an even count). */
export function medianBy<T>(items: readonly T[], key: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (middle === undefined) throw new Error('median of nothing');
  return middle;
}

/**
 * interleaved runs each measurement once per round, in turn, and keeps each one's median round
 * by key: the machine is shared, so load drifts over time, and pairs whose ratio matters are
 * measured side by side rather than one after the other.
 */
export async function interleaved<T>(runs: ReadonlyArray<() => Promise<T>>, rounds: number, key: (item: T) => number): Promise<T[]> {
  const results: T[][] = runs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, run] of runs.entries()) results[i]?.push(await run());
  }
  return results.map((rs) => medianBy(rs, key));
}
