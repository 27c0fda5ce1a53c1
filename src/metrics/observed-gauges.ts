// Gauges read at scrape time from the app's state, so nothing has to be kept in step on every
// change: objects in the cache per schema and location, and open streaming clients per API.

import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { METRIC_PREFIX } from './metrics.js';

/** CachedObjectCount is the number of copies of one schema in one (shard, cluster). */
export interface CachedObjectCount {
  readonly schema: string;
  readonly shard: string;
  readonly cluster: string;
  readonly count: number;
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
