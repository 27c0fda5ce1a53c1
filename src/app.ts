// The composition root: the only module (with the pieces in src/app/) that wires the others
// together. buildApp makes a complete, independent instance (its own stores, registry, logger),
// so tests can run several in one process. start() brings it up in order: HTTP first (the
// embedded source is reached over HTTP on the same port), then sources and their controllers;
// stop() goes the other way.

import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { apiServerPlugin } from './apiserver/api-server-plugin.js';
import type { ApiServerOptions } from './apiserver/api-server-plugin.js';
import { cacheApiCatalog, locateInCache } from './apiserver/cache-api/cache-api-source.js';
import { createEmbeddedSource } from './apiserver/embedded/embedded-source.js';
import { cachePurger, createCacheStore } from './app/cache-store.js';
import { createAuthRuntime } from './app/auth-runtime.js';
import { createHttpServer } from './app/http-server.js';
import { authPlugin } from './auth/auth-plugin.js';
import { authorizeClusterRequest } from './auth/cluster-guard.js';
import { startSourceRuntime } from './app/source-runtime.js';
import type { SourceRuntime } from './app/source-runtime.js';
import { GRAPHIQL_ROUTES } from './graphql/graphiql-page.js';
import { graphqlPlugin } from './graphql/graphql-plugin.js';
import { facadePlugin } from './http/facade/facade-plugin.js';
import { ActiveWatches } from './apiserver/watch-stream.js';
import { registerLoadShedding } from './http/load-shedding.js';
import { metricsPlugin } from './http/metrics-route.js';
import { observeCachedObjects, observeStreamingClients } from './metrics/observed-gauges.js';
import { probesPlugin } from './http/probes.js';
import type { Checker } from './http/probes.js';
import { SharedInformers } from './kube/shared-informers.js';
import { connectSource, embeddedSource } from './kube/source-connection.js';
import type { SourceConnection } from './kube/source-connection.js';
import { createMetrics } from './metrics/metrics.js';
import { createReadModel } from './read/create-read-model.js';
import type { ReadModel } from './read/read-model.js';
import { CacheCopies } from './read/cache-copies.js';
import { ReadWaiter } from './read/read-waiter.js';
import { replicatedAtLeast } from './read/replication-progress.js';
import { unwrapCachedObject } from './cachedobjects/wrap-cached-object.js';
import { OverlayRuntime } from './app/overlay-runtime.js';
import { KeyedMutex } from './overlay/key-lock.js';
import { parseOverlayGvks, parseTtl } from './overlay/overlay-gvks.js';
import { createWriteService } from './write/source-write-service.js';
import type { WriteSource } from './write/source-write-service.js';
import type { WriteService } from './write/write-service.js';
import { WrittenScopes } from './write/written-scopes.js';
import { MemoryStore } from './store/memory-store.js';
import type { ResourceStore } from './store/store.js';

/** GIT_VERSION is the Kubernetes version the embedded API reports; kubectl picks its build from it. */
const GIT_VERSION = 'v1.32.0';

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
  const metrics = createMetrics();
  const sourceStore = new MemoryStore({ eventWindow: config.store.eventWindow, eventWindowBytes: config.store.eventWindowBytes });
  const embedded = createEmbeddedSource(sourceStore);
  const cache = createCacheStore(config.store.eventWindow, config.store.eventWindowBytes);
  const informers = new SharedInformers({ log: logger.child({ component: 'informers' }), metrics: metrics.registry });
  const runtimes: SourceRuntime[] = [];
  // The read-your-writes overlay (config `cache`): absent when disabled, so reads and writes pay nothing.
  const gvks = parseOverlayGvks(config.cache.gvks);
  const overlayRuntime = config.cache.enabled
    ? new OverlayRuntime({ cache, ttlMs: parseTtl(config.cache.ttl), registry: metrics.registry })
    : undefined;
  const scopes = new WrittenScopes();
  const copies = new CacheCopies(cache);
  const read = createReadModel({
    cache,
    clusterCachedResources: () => runtimes.flatMap((r) => r.clusterCachedResources()),
    ...(overlayRuntime ? { overlay: { overlay: overlayRuntime.overlay, scopes: () => scopes.all() } } : {}),
    waiter: new ReadWaiter({
      timeoutMs: config.limits.minResourceVersionWaitMs,
      progress: {
        hasReplicated: (wanted) => {
          const runtime = runtimes.find((r) => r.name === wanted.shard);
          return runtime !== undefined && replicatedAtLeast(runtime.replicationProgress(wanted.cluster), wanted);
        },
      },
    }),
  });
  const write = createWriteService({
    sources: () => new Map<string, WriteSource>(runtimes.map((r) => [r.name, { client: r.client }])),
    overlay: overlayRuntime?.overlay,
    isOverlaid: (group, version, kind) => gvks.isOverlaid(group, version, kind),
    resolveKind: async (shard, cluster, gvr) => runtimes.find((r) => r.name === shard)?.discovery.resolve(cluster, gvr),
    cacheCopy: async (key, version) => {
      const copy = await copies.copyOf({ ...key, gvr: { group: key.group, version, resource: key.resource } });
      return copy === undefined ? undefined : unwrapCachedObject(copy);
    },
    cacheObjectsIn: async (shard, cluster, gvr, namespace) => (await copies.copiesIn(shard, cluster, gvr, namespace)).map(unwrapCachedObject),
    ...(overlayRuntime ? { recentDeletion: (key) => overlayRuntime.recentDeletion(key) } : {}),
    scopes,
    locks: new KeyedMutex(),
  });
  const connectionErrors = new Map<string, string>();
  let serving = false;

  const readiness: Record<string, Checker> = {
    serving: () => {
      if (!serving) throw new Error('not serving (starting or shutting down)');
    },
  };
  const sourceNames = [...(config.embedded.enabled ? ['embedded'] : []), ...config.sources.map((s) => s.name)];
  for (const name of sourceNames) {
    readiness[`source:${name}`] = () => {
      const error = connectionErrors.get(name);
      if (error) throw new Error(error);
      const runtime = runtimes.find((r) => r.name === name);
      if (!runtime) throw new Error('not started');
      runtime.check();
    };
  }

  await registerLoadShedding(fastify, { maxEventLoopDelayMs: config.limits.maxEventLoopDelayMs, retryAfterSeconds: 10 });
  const auth = createAuthRuntime(config.auth);
  await fastify.register(authPlugin, { ...auth.plugin, publicRoutes: GRAPHIQL_ROUTES });
  await fastify.register(metricsPlugin, { metrics });
  const watches = { embedded: new ActiveWatches(), cache: new ActiveWatches() };
  observeStreamingClients(metrics.registry, { embedded: () => watches.embedded.size, cache: () => watches.cache.size });
  observeCachedObjects(metrics.registry, async () => (await read.schemas()).flatMap((s) =>
    s.clusters.map((c) => ({ schema: s.name, shard: c.shard, cluster: c.cluster, count: c.count }))));
  await fastify.register(probesPlugin, { readiness });
  const watchLimits = {
    timeoutSeconds: config.watch.timeoutSeconds,
    bookmarkIntervalMs: config.watch.bookmarkIntervalSeconds * 1000,
    maxBufferedBytes: config.watch.maxBufferedBytes,
  };
  const authorize = auth.authenticator ? { authorize: authorizeClusterRequest } : {};
  const common: Pick<ApiServerOptions, 'gitVersion' | 'bodyLimit' | 'watchLimits' | 'authorize'> = { gitVersion: GIT_VERSION, bodyLimit: config.limits.bodyBytes, watchLimits, ...authorize };
  if (config.embedded.enabled) {
    await fastify.register(apiServerPlugin, {
      ...common, prefix: '/clusters/:cluster', store: sourceStore, catalog: embedded.catalog, hooks: embedded.hooks,
      locate: embedded.locate, requireNamespaces: true, watches: watches.embedded,
    });
  }
  // facade: REST and GraphQL register here
  await fastify.register(facadePlugin, { read, write, registry: metrics.registry, sseMaxBufferedBytes: config.watch.maxBufferedBytes, bodyLimit: config.limits.bodyBytes });
  await fastify.register(graphqlPlugin, {
    read, write, registry: metrics.registry, websocket: config.graphql.websocket, subscriptionQueueBytes: config.watch.maxBufferedBytes,
    ...(auth.authenticator ? { authenticator: auth.authenticator } : {}),
  });
  await fastify.register(apiServerPlugin, {
    ...common, prefix: '/services/cache/shards/:shard/clusters/:cluster', store: cache, catalog: cacheApiCatalog(), hooks: {},
    locate: locateInCache, requireNamespaces: false, watches: watches.cache,
  });

  const startSources = (baseUrl: string): void => {
    const connections: SourceConnection[] = [];
    if (config.embedded.enabled) connections.push(embeddedSource(baseUrl, auth.internalToken));
    for (const sourceConfig of config.sources) {
      try {
        connections.push(connectSource(sourceConfig));
      } catch (err) {
        // One broken source must not stop the others; readiness names it.
        connectionErrors.set(sourceConfig.name, err instanceof Error ? err.message : String(err));
        logger.error({ source: sourceConfig.name, err }, 'source not connected');
      }
    }
    for (const source of connections) {
      runtimes.push(startSourceRuntime({
        source, informers, cache, purger: cachePurger(cache), registry: metrics.registry,
        log: logger.child({ source: source.name }), workers: config.workers,
        observeLag: (seconds) => metrics.replicationLag.observe({ shard: source.name }, seconds),
      }));
    }
  };
  const stopSources = async (): Promise<void> => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
    informers.stopAll();
  };

  // The root's hook runs before the plugins' (which end watches and streams). The controllers
  // reach the embedded source through this listener, so they stop while it still serves; only
  // then is it closed, so a client whose watch ends next cannot open another.
  fastify.addHook('preClose', async () => {
    serving = false;
    connections.drain();
    overlayRuntime?.stop();
    await stopSources();
    await connections.stopAccepting();
  });

  return {
    fastify,
    stores: { source: sourceStore, cache },
    read,
    write,
    async start() {
      if (config.embedded.enabled) await embedded.prepare(config.embedded.clusters);
      await overlayRuntime?.start();
      const address = await fastify.listen({ host: config.host, port: config.port });
      serving = true;
      startSources(loopbackUrl(address));
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
