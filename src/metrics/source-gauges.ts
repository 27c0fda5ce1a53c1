// Gauges of the sources' health and of the app's readiness, read at scrape time from the same
// state /readyz reads, so a dashboard and the probes never disagree.

import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { READY_METRIC, SOURCE_LAST_SYNC_METRIC, SOURCE_UP_METRIC } from './metric-names.js';

/** SourceObservation is one configured source as its metrics see it. */
export interface SourceObservation {
  readonly source: string;
  /** up: the source's readiness check passes (connected, synced, and not lost for longer than the grace). */
  readonly up: boolean;
  /** lastSeenConnectedMs is when the source was last seen connected (epoch ms); undefined before its first list. */
  readonly lastSeenConnectedMs: number | undefined;
}

/** ReadinessCheck fails by throwing or rejecting, as the checks of /readyz do. */
export type ReadinessCheck = () => unknown;

/** observeSources registers `cachegate_source_up{source}` and `cachegate_source_last_sync_timestamp_seconds{source}`. */
export function observeSources(registry: Registry, sources: () => readonly SourceObservation[]): void {
  new Gauge({
    name: SOURCE_UP_METRIC,
    help: 'Whether a source serves: 1 while its readiness check passes (its ClusterCachedResources listed, its connection up or lost for less than 5 s, its first sync done), else 0 (also when it could not be connected at all).',
    labelNames: ['source'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of sources()) this.set({ source: s.source }, s.up ? 1 : 0);
    },
  });
  new Gauge({
    name: SOURCE_LAST_SYNC_METRIC,
    help: 'Unix time at which a source was last seen connected: its ClusterCachedResource informer had listed and its list or watch connection was up with no error since. Sampled at each scrape, so while connected it is the scrape time; it stops advancing when the connection fails, and time() minus it is how long the source has been out of contact. No series before the first list.',
    labelNames: ['source'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of sources()) {
        if (s.lastSeenConnectedMs !== undefined) this.set({ source: s.source }, s.lastSeenConnectedMs / 1000);
      }
    },
  });
}

/** observeReadiness registers `cachegate_ready`: 1 while every check passes, else 0. */
export function observeReadiness(registry: Registry, checks: () => Iterable<ReadinessCheck>): void {
  new Gauge({
    name: READY_METRIC,
    help: 'Whether this process is ready to serve: 1 while every check of /readyz passes, else 0 (also while it drains at shutdown).',
    registers: [registry],
    async collect() {
      const results = await Promise.allSettled([...checks()].map(async (check) => check()));
      this.set(results.every((r) => r.status === 'fulfilled') ? 1 : 0);
    },
  });
}
