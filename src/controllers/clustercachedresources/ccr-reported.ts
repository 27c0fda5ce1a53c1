// What cachegate reports about a CCR (REST /v1/clustercachedresources, GraphQL) while the source
// holding it cannot be reached. The CCR lives in that source, so its stored status cannot be
// updated and still says what was true when the source was last reached (phase Ready, counts).
// Repeating that would be a claim cachegate cannot back, so the report says what is known now,
// the Kubernetes way: a condition with positive polarity, `SourceReachable=False`, carrying the
// error and since when; and `resourceCounts.local` is dropped, because the number of objects in
// an unreachable source is unknown. `resourceCounts.cache` stays, the copies are still served, and
// is taken from the running replication controller when there is one: the stored status may
// predate the last copies (status writes are batched, and the source can go before one lands).

import type { KubeObject } from '../../apimachinery/object-meta.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';

/** SOURCE_REACHABLE is the condition type added to reported CCRs while their source is unreachable. */
export const SOURCE_REACHABLE = 'SourceReachable';

/** SourceHealth is the source's connection state: its error and since when, or nothing while connected. */
export interface SourceHealth {
  readonly error: string | undefined;
  /** since is when the failures began (ISO time). */
  readonly since: string | undefined;
}

/**
 * reportedCcr gives a CCR read from its source's informer, its status made honest for the source's
 * health now. liveCacheCount is the number of copies its replication controller counts now, if
 * one runs in this process.
 */
export function reportedCcr(ccr: KubeObject, health: SourceHealth, liveCacheCount?: number): KubeObject {
  if (health.error === undefined) return ccr;
  const status = isPlainObject(ccr['status']) ? ccr['status'] : {};
  const conditions = Array.isArray(status['conditions']) ? status['conditions'].filter((c) => !isPlainObject(c) || c['type'] !== SOURCE_REACHABLE) : [];
  conditions.push({
    type: SOURCE_REACHABLE,
    status: 'False',
    reason: 'SourceUnreachable',
    message: health.error,
    lastTransitionTime: health.since ?? new Date().toISOString(),
  });
  const next: Record<string, unknown> = { ...status, conditions };
  const counts = status['resourceCounts'];
  const storedCache = isPlainObject(counts) && typeof counts['cache'] === 'number' ? counts['cache'] : undefined;
  const cache = liveCacheCount ?? storedCache;
  if (cache !== undefined) next['resourceCounts'] = { cache };
  else if (isPlainObject(counts)) next['resourceCounts'] = {};
  return { ...ccr, status: next };
}
