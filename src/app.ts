// The composition root: the only module (with the pieces in src/app/) that wires the others
// together. buildApp makes a complete, independent instance (its own stores, registry, logger),
// so tests can run several in one process. buildApp starts the configured sources' informers
// before it loads the state, so the two overlap; start() brings the rest up in order: HTTP first
// (the embedded source is reached over HTTP on the same port), then the sources' controllers;
// stop() goes the other way.

import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { SharedValues } from './apimachinery/shared-values.js';
import { createEmbeddedSource } from './apiserver/embedded/embedded-source.js';
import { ActiveWatches } from './apiserver/watch-stream.js';
import { createAuthRuntime } from './app/auth-runtime.js';
import { createDataPlane, createOverlay } from './app/data-plane.js';
import { registerHttpSurfaces } from './app/http-plugins.js';
import { createHttpServer } from './app/http-server.js';
import { readinessChecks } from './app/readiness.js';
import { CCR_PHASES, Sources } from './app/sources.js';
import { replicaLeadership } from './app/leadership.js';
import { replicaReads } from './app/replica-reads.js';
import { openState } from './app/state.js';
import type { BatchStats } from './storage/local/group-commit.js';
import { createMetrics } from './metrics/metrics.js';
import type { ObservedOverlay } from './metrics/metrics.js';
import type { ReadModel } from './read/read-model.js';
import type { ResourceStore } from './store/store.js';
import type { WriteService } from './write/write-service.js';

/** App is one running (or ready to run) cachegate. */
export interface App {
  readonly fastify: FastifyInstance;
  /** stores are the embedded source's store and the cache, for in-process inspection. */
  readonly stores: { readonly source: ResourceStore; readonly cache: ResourceStore };
  /** read is the read model behind REST and GraphQL. */
  readonly read: ReadModel;
  /** write is the write service behind REST and GraphQL writes. */
  readonly write: WriteService;
  /** start listens and resolves with the base URL, once the service is serving. */
  start(): Promise<string>;
  /** stop turns readiness off (drainDelayMs), stops controllers and informers, closes the listener, ends watches, lets requests in flight finish. */
  stop(opts?: StopOptions): Promise<void>;
}

/** StopOptions: drainDelayMs keeps serving (readiness already 503) that long before closing. */
export interface StopOptions {
  readonly drainDelayMs?: number;
}

/** AppOptions: logger overrides the config's JSON logger (tests pass a silent one). */
export interface AppOptions {
  readonly logger?: Logger;
}

/** buildApp wires one instance of cachegate from a validated config. */
export async function buildApp(config: Config, opts: AppOptions = {}): Promise<App> {
  const logger = opts.logger ?? pino({ level: config.logLevel, redact: ['req.headers.authorization', 'headers.authorization'] });
  const { fastify, connections } = createHttpServer(logger, config.limits.bodyBytes);
  // The scrape-time gauges read what is built below; they run only once the app serves.
  const metrics = createMetrics({
    leading: () => leadership?.leading() ?? true,
    watchClients: { embedded: () => watches.embedded.size, cache: () => watches.cache.size },
    cachedObjects: async () => (await data.read.schemas()).flatMap((s) =>
      s.clusters.map((c) => ({ schema: s.name, shard: c.shard, cluster: c.cluster, count: c.count }))),
    ...(config.cache.enabled ? { overlay: { size: () => overlayOf().size(), evictions: () => overlayOf().evictions() } } : {}),
    sources: () => sources.observedSources(),
    ccrs: { phases: CCR_PHASES, list: () => sources.observedCcrs() },
    readiness: () => Object.values(readiness),
    // Read once the state is open: the etcd backend's client thread starts with it.
    storageThreadHeap: () => state.backend?.threadHeap() ?? Promise.resolve(undefined),
  });
  // One table of repeated values for what the sources send and what the state loads: a restarted
  // copy and the original its source lists again then share their records, and the replication
  // controller tells them equal mostly by reference.
  const sharedValues = new SharedValues();
  const sources = new Sources({ config, metrics, log: logger, sharedValues });
  // The configured sources list while the state loads: a restart does both at once.
  sources.prefetch();
  const onLocalCommit = (stats: BatchStats): void => metrics.storageCommits.observe({ backend: 'local' }, stats.durationMs / 1000);
  const state = await openState(config, logger, { onLocalCommit, sharedValues }).catch(async (err: unknown) => {
    await sources.stop();
    throw err;
  });
  const stores = { source: state.source, cache: state.cache };
  const embedded = createEmbeddedSource(stores.source);
  const overlay = createOverlay(config, stores.cache, (key, cause) => replicas?.recorder?.evicted(key, cause));
  const overlayOf = (): ObservedOverlay => {
    if (overlay === undefined) throw new Error('the overlay metrics are registered only when the overlay is enabled');
    return overlay.overlay;
  };
  const watches = { embedded: new ActiveWatches(), cache: new ActiveWatches() };
  // With etcd, replicas may share the state: one of them, elected, runs the controllers.
  const leadership = state.replicas === undefined
    ? undefined
    : replicaLeadership({ ...state.replicas, leaseSeconds: config.ha.leaseSeconds, sources, log: logger.child({ component: 'leadership' }) });
  // Replicas read consistently, and share the overlay through etcd.
  const replicas = state.replicas === undefined ? undefined : replicaReads({
    backend: state.replicas.backend, cachePosition: state.replicas.cachePosition, sourcePosition: state.replicas.sourcePosition,
    overlay, overlayTtlMs: config.cache.ttlMs,
    waitMs: config.ha.consistentReadWaitMs, leading: () => leadership?.leading() ?? false, log: logger.child({ component: 'replicas' }),
  });
  const data = createDataPlane(config, stores.cache, sources, overlay, replicas);
  const auth = createAuthRuntime(config.auth);
  let serving = false;
  const readiness = readinessChecks(() => serving, sources, state.backend, leadership);
  await registerHttpSurfaces(fastify, {
    config, auth, metrics, readiness, data, stores, embedded, watches, ...(replicas ? { sourceConsistency: replicas.sourceConsistency } : {}),
  });

  // The root's hook runs before the plugins' (which end watches and streams). The controllers
  // reach the embedded source through this listener, so they stop while it still serves; only
  // then is it closed, so a client whose watch ends next cannot open another.
  fastify.addHook('preClose', async () => {
    serving = false;
    connections.drain();
    overlay?.stop();
    await replicas?.stop();
    await sources.stop();
    // Resigning once the controllers have stopped hands the leadership over without overlap.
    await leadership?.stop();
    await connections.stopAccepting();
  });
  // The state closes last: requests in flight may still write until the listener has closed.
  fastify.addHook('onClose', () => state.close());

  return {
    fastify,
    stores,
    read: data.read,
    write: data.write,
    async start() {
      if (config.embedded.enabled) await embedded.prepare(config.embedded.clusters);
      await overlay?.start();
      await replicas?.start();
      const address = await fastify.listen({ host: config.host, port: config.port });
      serving = true;
      sources.start(stores.cache, loopbackUrl(address), auth.internalToken, leadership === undefined);
      leadership?.start();
      // The Node.js version says which runtime serves: npm scripts run the one package.json installs.
      logger.info({ address, node: process.version }, 'cachegate is serving');
      return address;
    },
    async stop(stopOpts: StopOptions = {}) {
      serving = false;
      // Readiness answers 503 while the listener still serves, so load balancers stop sending
      // first; meanwhile every response closes its connection, so keep-alive clients leave cleanly.
      connections.drain();
      if (stopOpts.drainDelayMs) await new Promise((resolve) => setTimeout(resolve, stopOpts.drainDelayMs));
      await fastify.close();
    },
  };
}

/** loopbackUrl is how this process reaches its own listener (0.0.0.0 and :: are not addresses to dial). */
function loopbackUrl(address: string): string {
  const url = new URL(address);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  return url.origin;
}
