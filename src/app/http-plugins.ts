// Every HTTP surface of one app, registered in order on its fastify instance: CORS first (a
// preflight carries no token, and a shed or refused answer must still be readable by the page
// that asked), then load shedding and authentication (they guard everything after them), then
// operations (metrics, probes, /version), the embedded source, the REST and GraphQL facades, and
// the cache API.

import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { apiServerPlugin } from '../apiserver/api-server-plugin.js';
import type { ApiServerOptions } from '../apiserver/api-server-plugin.js';
import { cacheApiCatalog, locateInCache } from '../apiserver/cache-api/cache-api-source.js';
import { versionInfo } from '../apiserver/discovery.js';
import type { EmbeddedSource } from '../apiserver/embedded/embedded-source.js';
import type { ActiveWatches } from '../apiserver/watch-stream.js';
import { authPlugin } from '../auth/auth-plugin.js';
import { authorizeClusterRequest } from '../auth/cluster-guard.js';
import { principalOf } from '../auth/request-principal.js';
import { GRAPHIQL_ROUTES } from '../graphql/graphiql-page.js';
import { JsonText } from '../apimachinery/json-text.js';
import { graphqlPlugin } from '../graphql/graphql-plugin.js';
import { facadePlugin } from '../http/facade/facade-plugin.js';
import { registerCors } from '../http/cors.js';
import { registerLoadShedding } from '../http/load-shedding.js';
import { metricsPlugin } from '../http/metrics-route.js';
import { probesPlugin } from '../http/probes.js';
import type { Checker } from '../http/probes.js';
import { UI_ROUTES, uiRoutes } from '../http/ui-routes.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Consistency } from '../read/read-model.js';
import type { ResourceStore } from '../store/store.js';
import type { AuthRuntime } from './auth-runtime.js';
import type { DataPlane } from './data-plane.js';

/** GIT_VERSION is the Kubernetes version the embedded API reports; kubectl picks its build from it. */
export const GIT_VERSION = 'v1.32.0';

/** HttpSurfaces are what the routes serve. */
export interface HttpSurfaces {
  readonly config: Config;
  readonly auth: AuthRuntime;
  readonly metrics: Metrics;
  readonly readiness: Readonly<Record<string, Checker>>;
  readonly data: DataPlane;
  readonly stores: { readonly source: ResourceStore; readonly cache: ResourceStore };
  readonly embedded: EmbeddedSource;
  readonly watches: { readonly embedded: ActiveWatches; readonly cache: ActiveWatches };
  /** sourceConsistency, on replicas sharing a backend, makes the embedded source's reads and writes see other replicas' writes. */
  readonly sourceConsistency?: Consistency;
}

/** registerHttpSurfaces registers every route family of the app. */
export async function registerHttpSurfaces(fastify: FastifyInstance, s: HttpSurfaces): Promise<void> {
  const { config, auth, metrics, data } = s;
  await registerCors(fastify, config.http.cors.origins);
  await registerLoadShedding(fastify, { maxEventLoopDelayMs: config.limits.maxEventLoopDelayMs, retryAfterSeconds: 10 });
  // Pages of static files, which hold no data, are served without a token: GraphiQL and the dashboard.
  await fastify.register(authPlugin, { ...auth.plugin, publicRoutes: new Set([...GRAPHIQL_ROUTES, ...UI_ROUTES]) });
  await fastify.register(metricsPlugin, { metrics });
  await fastify.register(probesPlugin, { readiness: s.readiness });
  // kube-apiserver serves /version at its root; `kubectl --server <base>/clusters/root get --raw /version` asks there (a raw path is server-relative).
  fastify.get('/version', async () => versionInfo(GIT_VERSION));
  const common: Pick<ApiServerOptions, 'gitVersion' | 'bodyLimit' | 'watchLimits' | 'authorize' | 'userOf'> = {
    gitVersion: GIT_VERSION,
    bodyLimit: config.limits.bodyBytes,
    watchLimits: {
      timeoutSeconds: config.watch.timeoutSeconds,
      bookmarkIntervalMs: config.watch.bookmarkIntervalSeconds * 1000,
      maxBufferedBytes: config.watch.maxBufferedBytes,
    },
    ...(auth.authenticator ? { authorize: authorizeClusterRequest, userOf: (req) => principalOf(req)?.user } : {}),
  };
  if (config.embedded.enabled) {
    await fastify.register(apiServerPlugin, {
      ...common, prefix: '/clusters/:cluster', store: s.stores.source, catalog: s.embedded.catalog, hooks: s.embedded.hooks,
      locate: s.embedded.locate, requireNamespaces: true, watches: s.watches.embedded,
      ...(s.sourceConsistency ? { consistentRead: () => s.sourceConsistency?.wait() } : {}),
    });
  }
  // One cache of frozen objects' JSON text for REST and GraphQL: an object read through both is serialised once.
  const json = new JsonText();
  await fastify.register(facadePlugin, {
    json, read: data.read, write: data.write, sseClients: metrics.sseClients, sseMaxBufferedBytes: config.watch.maxBufferedBytes, bodyLimit: config.limits.bodyBytes,
  });
  await fastify.register(graphqlPlugin, {
    json, read: data.read, write: data.write, subscriptionsGauge: metrics.graphqlSubscriptions, counters: metrics.graphqlSubscriptions, websocket: config.graphql.websocket,
    subscriptionQueueBytes: config.watch.maxBufferedBytes,
    ...(auth.authenticator ? { authenticator: auth.authenticator } : {}),
  });
  await fastify.register(uiRoutes, {});
  await fastify.register(apiServerPlugin, {
    ...common, prefix: '/services/cache/shards/:shard/clusters/:cluster', store: s.stores.cache, catalog: cacheApiCatalog(), hooks: {},
    locate: locateInCache, requireNamespaces: false, watches: s.watches.cache, consistentRead: () => data.read.waitForRead({}),
  });
}
