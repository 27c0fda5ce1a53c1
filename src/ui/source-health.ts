// The health of each source, put together from what the public APIs say: /readyz?verbose has a
// `source:<name>` check per source (`[+]source:x ok` or `[-]source:x failed: <why>`), each CCR
// names its source in the `kcp.io/shard` annotation and its phase, and /metrics counts the
// changes replicated per shard. The last successful sync is the last time this page saw the
// source's check pass (a passing check means its informers are listed and watching); before the
// page saw it pass, the CCRs' latest True condition says since when it has been replicating.
// Where /metrics has `cachegate_source_last_sync_timestamp_seconds{source}` (the last time the
// server saw the source connected), that is the server's own answer and wins.

import { SHARD_ANNOTATION } from './api-types.js';
import type { ClusterCachedResource } from './api-types.js';

/** ReadyzCheck is one line of /readyz?verbose. */
export interface ReadyzCheck {
  readonly name: string;
  readonly ok: boolean;
  /** detail is the check's note when it passes, its reason when it fails. */
  readonly detail: string;
}

/** SourceRow is one source as the overview shows it. */
export interface SourceRow {
  readonly name: string;
  /** ok is undefined when /readyz has no check of that name (a CCR names a source this replica does not run). */
  readonly ok: boolean | undefined;
  readonly detail: string;
  readonly lastSync: Date | undefined;
  readonly lastChange: Date | undefined;
  /** ccrs and readyCcrs are undefined when the CCRs could not be read. */
  readonly ccrs: number | undefined;
  readonly readyCcrs: number | undefined;
}

const CHECK_LINE = /^\[([+-])\](\S+) (?:ok(?: \((.*)\))?|failed: (.*))$/;

/** parseReadyz reads the checks of /readyz?verbose, skipping the summary line. */
export function parseReadyz(text: string): ReadyzCheck[] {
  const checks: ReadyzCheck[] = [];
  for (const line of text.split('\n')) {
    const match = CHECK_LINE.exec(line);
    if (match === null) continue;
    checks.push({ name: match[2] ?? '', ok: match[1] === '+', detail: match[1] === '+' ? (match[3] ?? '') : (match[4] ?? '') });
  }
  return checks;
}

/** SOURCE_CHECK_PREFIX starts the name of each source's readiness check. */
export const SOURCE_CHECK_PREFIX = 'source:';

/** SOURCE_SYNC_METRIC is the Unix time each source was last seen connected, labelled by source. */
export const SOURCE_SYNC_METRIC = 'cachegate_source_last_sync_timestamp_seconds';

/** Observed is what the page learnt from /metrics about the sources. */
export interface Observed {
  /** lastSyncBySource: SOURCE_SYNC_METRIC, where the server has it. */
  readonly lastSyncBySource: ReadonlyMap<string, Date>;
  /** lastChangeByShard: when a scrape first showed a change replicated from each shard. */
  readonly lastChangeByShard: ReadonlyMap<string, Date>;
}

/** SourceHealthTracker remembers when each source was last seen healthy. */
export class SourceHealthTracker {
  private readonly lastOk = new Map<string, Date>();

  /** rows gives each source known from the checks or from the CCRs, by name. */
  rows(checks: readonly ReadyzCheck[], ccrs: readonly ClusterCachedResource[] | undefined, observed: Observed, now: Date): SourceRow[] {
    const byName = new Map<string, ReadyzCheck>();
    for (const check of checks) if (check.name.startsWith(SOURCE_CHECK_PREFIX)) byName.set(check.name.slice(SOURCE_CHECK_PREFIX.length), check);
    const names = new Set([...byName.keys(), ...(ccrs ?? []).map(shardOf)]);
    return [...names].sort().map((name) => {
      const check = byName.get(name);
      if (check?.ok === true) this.lastOk.set(name, now);
      const own = ccrs?.filter((ccr) => shardOf(ccr) === name);
      return {
        name,
        ok: check?.ok,
        detail: check?.detail ?? 'no readiness check of this replica names it',
        lastSync: observed.lastSyncBySource.get(name) ?? this.lastOk.get(name) ?? latestTrueCondition(own ?? []),
        lastChange: observed.lastChangeByShard.get(name),
        ccrs: own?.length,
        readyCcrs: own?.filter((ccr) => ccr.status?.phase === 'Ready').length,
      };
    });
  }
}

/** shardOf is the source a CCR was read from. */
export function shardOf(ccr: ClusterCachedResource): string {
  return ccr.metadata.annotations?.[SHARD_ANNOTATION] ?? '';
}

function latestTrueCondition(ccrs: readonly ClusterCachedResource[]): Date | undefined {
  const times = ccrs.flatMap((ccr) => ccr.status?.conditions ?? [])
    .filter((condition) => condition.status === 'True' && condition.lastTransitionTime !== undefined)
    .map((condition) => Date.parse(condition.lastTransitionTime ?? ''))
    .filter((time) => !Number.isNaN(time));
  return times.length === 0 ? undefined : new Date(Math.max(...times));
}
