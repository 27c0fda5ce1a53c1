// Gauges of each ClusterCachedResource, read at scrape time from the CCRs the sources' informers
// hold (with their status as reported: while a source is unreachable its CCRs carry no local
// count). A series lasts as long as its CCR: every scrape starts from an empty gauge.

import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { CCR_OBJECTS_METRIC, CCR_PHASE_METRIC } from './metric-names.js';

/** CcrObservation is one CCR as its metrics see it. */
export interface CcrObservation {
  readonly source: string;
  readonly cluster: string;
  readonly ccr: string;
  /** phase is status.phase; undefined before the controller first wrote it. */
  readonly phase: string | undefined;
  /** objects are status.resourceCounts: in the source (local) and in the cache; each undefined when unknown. */
  readonly objects: { readonly local: number | undefined; readonly cache: number | undefined };
}

/** ObservedCcrs are the CCRs to report and the closed set of phases they may be in. */
export interface ObservedCcrs {
  /** phases are every phase a CCR may have: each CCR gets one series per phase, so the set must be closed. */
  readonly phases: readonly string[];
  list(): readonly CcrObservation[];
}

/** observeCcrs registers `cachegate_ccr_phase{source,cluster,ccr,phase}` and `cachegate_ccr_objects{source,cluster,ccr,where}`. */
export function observeCcrs(registry: Registry, ccrs: ObservedCcrs): void {
  new Gauge({
    name: CCR_PHASE_METRIC,
    help: `A ClusterCachedResource's status.phase: 1 for its current phase, 0 for the others of ${ccrs.phases.join(', ')} (all 0 before its first status).`,
    labelNames: ['source', 'cluster', 'ccr', 'phase'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const c of ccrs.list()) {
        for (const phase of ccrs.phases) this.set({ source: c.source, cluster: c.cluster, ccr: c.ccr, phase }, c.phase === phase ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: CCR_OBJECTS_METRIC,
    help: "A ClusterCachedResource's objects as its status counts them: where=local in its source (no series while the source is unreachable), where=cache copied into the cache.",
    labelNames: ['source', 'cluster', 'ccr', 'where'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const c of ccrs.list()) {
        const labels = { source: c.source, cluster: c.cluster, ccr: c.ccr };
        if (c.objects.local !== undefined) this.set({ ...labels, where: 'local' }, c.objects.local);
        if (c.objects.cache !== undefined) this.set({ ...labels, where: 'cache' }, c.objects.cache);
      }
    },
  });
}
