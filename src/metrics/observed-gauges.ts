// Gauges read at scrape time from the app's state, so nothing has to be kept in step on every
// change: objects in the cache per schema and location, open streaming clients per API, and the
// read-your-writes overlay's entries and evictions.

import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { LEADER_METRIC, METRIC_PREFIX } from './metric-names.js';

/** CachedObjectCount is the number of copies of one schema in one (shard, cluster). */
export interface CachedObjectCount {
  readonly schema: string;
  readonly shard: string;
  readonly cluster: string;
  readonly count: number;
}

/** EVICTION_CAUSES are the values of the overlay evictions' cause label. */
const EVICTION_CAUSES = ['cache', 'ttl'] as const;

/** ObservedOverlay is what the overlay metrics read: the overlay's size and its evictions so far. */
export interface ObservedOverlay {
  size(): { readonly live: number; readonly tombstones: number };
  evictions(): Readonly<Record<(typeof EVICTION_CAUSES)[number], number>>;
}

/** observeCachedObjects registers `cachegate_cached_objects{schema,shard,cluster}`. */
export function observeCachedObjects(registry: Registry, counts: () => Promise<readonly CachedObjectCount[]>): void {
  new Gauge({
    name: `${METRIC_PREFIX}cached_objects`,
    help: 'CachedObjects in the cache, by schema, shard and logical cluster.',
    labelNames: ['schema', 'shard', 'cluster'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const c of await counts()) this.set({ schema: c.schema, shard: c.shard, cluster: c.cluster }, c.count);
    },
  });
}

/** observeStreamingClients registers `cachegate_watch_clients{api}` over counters of open streams. */
export function observeStreamingClients(registry: Registry, clients: Readonly<Record<string, () => number>>): void {
  new Gauge({
    name: `${METRIC_PREFIX}watch_clients`,
    help: 'Open kube-API watch streams, by API (embedded source, cache).',
    labelNames: ['api'] as const,
    registers: [registry],
    collect() {
      for (const [api, count] of Object.entries(clients)) this.set({ api }, count());
    },
  });
}

/** observeLeadership registers `cachegate_leader`: 1 while this process runs the controllers (always, without leader election), else 0. */
export function observeLeadership(registry: Registry, leading: () => boolean): void {
  new Gauge({
    name: LEADER_METRIC,
    help: 'Whether this replica leads (runs the controllers and writes the cache): 1 or 0. A process without leader election (local or memory backend) always leads.',
    registers: [registry],
    collect() {
      this.set(leading() ? 1 : 0);
    },
  });
}

/** observeOverlay registers `cachegate_overlay_entries{kind}` and `cachegate_overlay_evictions_total{cause}`. */
export function observeOverlay(registry: Registry, overlay: ObservedOverlay): void {
  new Gauge({
    name: `${METRIC_PREFIX}overlay_entries`,
    help: 'Writes recorded in the read-your-writes overlay and not yet replicated by the cache, by kind (live, tombstone).',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      const size = overlay.size();
      this.set({ kind: 'live' }, size.live);
      this.set({ kind: 'tombstone' }, size.tombstones);
    },
  });
  const reported: Record<(typeof EVICTION_CAUSES)[number], number> = { cache: 0, ttl: 0 };
  const evictions = new Counter({
    name: `${METRIC_PREFIX}overlay_evictions_total`,
    help: 'Overlay entries removed, by cause: the cache caught up (cache) or the entry expired (ttl).',
    labelNames: ['cause'] as const,
    registers: [registry],
    collect() {
      // A counter only goes up: add what was evicted since the last scrape.
      const now = overlay.evictions();
      for (const cause of EVICTION_CAUSES) {
        this.inc({ cause }, now[cause] - reported[cause]);
        reported[cause] = now[cause];
      }
    },
  });
  for (const cause of EVICTION_CAUSES) evictions.inc({ cause }, 0);
}
