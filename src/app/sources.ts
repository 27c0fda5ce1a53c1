// The sources of one app: their connections, their running runtimes (root controller and
// replication controllers each), the informers they share, and what the rest of the app asks of
// them (readiness, CCR reports, replication progress, write clients). The configured sources are
// connected, and their informers prefetched, before the state loads; the runtimes start once the
// HTTP listener is up, since the embedded source is reached through it.

import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import { CLUSTER_ANNOTATION } from '../cachedobjects/cached-object-annotations.js';
import { readCcr } from '../controllers/clustercachedresources/ccr-view.js';
import type { CcrPhase } from '../controllers/clustercachedresources/ccr-view.js';
import type { CcrObservation, Metrics, SourceObservation } from '../metrics/metrics.js';
import { SharedInformers } from '../kube/shared-informers.js';
import { connectSource, embeddedSource } from '../kube/source-connection.js';
import type { SourceConnection } from '../kube/source-connection.js';
import type { MinResourceVersion } from '../read/min-resource-version.js';
import { replicatedAtLeast } from '../read/replication-progress.js';
import type { IndexReader, ResourceStore } from '../store/store.js';
import { cachePurger } from './cache-store.js';
import { LoopTurns } from '../apimachinery/loop-turns.js';
import { prefetchInformers } from './informer-prefetch.js';
import type { Prefetched } from './informer-prefetch.js';
import { CCR_GVR, startSourceRuntime } from './source-runtime.js';
import type { SourceRuntime } from './source-runtime.js';
import type { SharedValues } from '../apimachinery/shared-values.js';

/** CCR_PHASES are every phase a CCR's status may have: the compiler holds the list to CcrPhase, both ways. */
export const CCR_PHASES: readonly string[] = Object.keys({ Initializing: true, Ready: true, Deleting: true, Deleted: true } satisfies Record<CcrPhase, true>);

/** SourcesOptions are what the sources need from the app. */
export interface SourcesOptions {
  readonly config: Pick<Config, 'embedded' | 'sources' | 'workers'>;
  readonly metrics: Metrics;
  readonly log: Logger;
  /** sharedValues: the one table every source's objects share their repeated values through. */
  readonly sharedValues?: SharedValues;
}

/** Sources owns the app's source runtimes. */
export class Sources {
  readonly #opts: SourcesOptions;
  /** turns: one budget per event-loop turn for every replication controller of the app. */
  readonly #turns = new LoopTurns();
  readonly #informers: SharedInformers;
  readonly #runtimes: SourceRuntime[] = [];
  /** #connectionErrors names the configured sources that could not even be connected (a bad kubeconfig). */
  readonly #connectionErrors = new Map<string, string>();
  /** #remote: the configured sources connected, each with its prefetch; undefined until connected. */
  #remote: { readonly source: SourceConnection; readonly prefetched: Prefetched }[] | undefined;

  constructor(opts: SourcesOptions) {
    this.#opts = opts;
    this.#informers = new SharedInformers({
      log: opts.log.child({ component: 'informers' }), restarts: opts.metrics.informerRestarts, ...(opts.sharedValues ? { sharedValues: opts.sharedValues } : {}),
    });
  }

  /** names are every configured source's name, the embedded one first. */
  get names(): string[] {
    const { embedded, sources } = this.#opts.config;
    return [...(embedded.enabled ? ['embedded'] : []), ...sources.map((s) => s.name)];
  }

  /** runtime is the running runtime of a source, if it runs. */
  runtime(name: string): SourceRuntime | undefined {
    return this.#runtimes.find((r) => r.name === name);
  }

  /** all are the running runtimes. */
  all(): readonly SourceRuntime[] {
    return this.#runtimes;
  }

  /**
   * prefetch connects the configured sources and starts the informers their controllers will
   * need (see informer-prefetch.ts), so their lists run while the state loads. start calls it
   * if nobody did.
   */
  prefetch(): void {
    if (this.#remote !== undefined) return;
    this.#remote = [];
    for (const sourceConfig of this.#opts.config.sources) {
      try {
        const source = connectSource(sourceConfig);
        this.#remote.push({ source, prefetched: prefetchInformers(this.#informers, source, CCR_GVR) });
      } catch (err) {
        // One broken source must not stop the others; readiness names it.
        this.#connectionErrors.set(sourceConfig.name, err instanceof Error ? err.message : String(err));
        this.#opts.log.error({ source: sourceConfig.name, err }, 'source not connected');
      }
    }
  }

  /**
   * start runs every source's runtime over the cache (the embedded source at baseUrl). With
   * leading, their controllers start at once and readiness waits for their first sync; otherwise
   * they run from lead() to follow() (a replica under leader election).
   */
  start(cache: ResourceStore & IndexReader, baseUrl: string, internalToken: string | undefined, leading: boolean): void {
    const { config, metrics, log } = this.#opts;
    this.prefetch();
    const connections: { readonly source: SourceConnection; readonly prefetched?: Prefetched }[] = [];
    if (config.embedded.enabled) connections.push({ source: embeddedSource(baseUrl, internalToken) });
    connections.push(...(this.#remote ?? []));
    for (const { source, prefetched } of connections) {
      this.#runtimes.push(startSourceRuntime({
        source, informers: this.#informers, cache, purger: cachePurger(cache), metrics,
        log: log.child({ source: source.name }), workers: config.workers, turns: this.#turns,
        observeLag: (seconds) => metrics.replicationLag.observe({ shard: source.name }, seconds),
        leading, ...(prefetched ? { prefetched } : {}),
      }));
    }
  }

  /** lead starts every source's controllers; with gateReadiness, readiness waits for their first sync. */
  lead(gateReadiness: boolean): void {
    for (const runtime of this.#runtimes) runtime.lead(gateReadiness);
  }

  /** follow stops every source's controllers and resolves once they have stopped. */
  async follow(): Promise<void> {
    await Promise.all(this.#runtimes.map((runtime) => runtime.follow()));
  }

  /** stop stops every runtime, then every informer. */
  async stop(): Promise<void> {
    await Promise.all(this.#runtimes.splice(0).map((runtime) => runtime.stop()));
    for (const { prefetched } of this.#remote ?? []) prefetched.releaseAll();
    this.#informers.stopAll();
  }

  /** check throws why a source cannot serve: not connected, not started, or its runtime's reason. */
  check(name: string): void {
    const error = this.#connectionErrors.get(name);
    if (error) throw new Error(error);
    const runtime = this.runtime(name);
    if (!runtime) throw new Error('not started');
    runtime.check();
  }

  /** observedSources report every configured source to the metrics: up when its readiness check passes. */
  observedSources(): SourceObservation[] {
    return this.names.map((name) => ({ source: name, up: this.#passes(name), lastSeenConnectedMs: this.runtime(name)?.lastSeenConnected() }));
  }

  /** observedCcrs report every source's CCRs (as reported) to the metrics: their phase and object counts. */
  observedCcrs(): CcrObservation[] {
    return this.#runtimes.flatMap((r) => r.clusterCachedResources().map((ccr) => ccrObservation(r.name, ccr)));
  }

  /** clusterCachedResources are every source's CCRs, as reported. */
  clusterCachedResources(): KubeObject[] {
    return this.#runtimes.flatMap((r) => r.clusterCachedResources());
  }

  #passes(name: string): boolean {
    try {
      this.check(name);
      return true;
    } catch {
      return false;
    }
  }

  /** hasReplicated tells whether the cache holds at least the wanted version of its source. */
  hasReplicated(wanted: MinResourceVersion): boolean {
    const runtime = this.runtime(wanted.shard);
    return runtime !== undefined && replicatedAtLeast(runtime.replicationProgress(wanted.cluster), wanted);
  }
}

/** ccrObservation reads what the metrics show of one reported CCR: its phase and its status' object counts. */
function ccrObservation(source: string, ccr: KubeObject): CcrObservation {
  const view = readCcr(ccr.metadata.annotations?.[CLUSTER_ANNOTATION] ?? '', ccr);
  const counts = isPlainObject(view.status['resourceCounts']) ? view.status['resourceCounts'] : {};
  const phase = view.status['phase'];
  return {
    source,
    cluster: view.cluster,
    ccr: view.name,
    phase: typeof phase === 'string' ? phase : undefined,
    objects: { local: countOf(counts['local']), cache: countOf(counts['cache']) },
  };
}

function countOf(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}
