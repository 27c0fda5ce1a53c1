// The composition root: the only module that wires the others together. buildApp makes a
// complete, independent instance (its own store, registry and logger), so tests can run
// several in one process; start() and stop() bring it up and down in order.

import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { apiServerPlugin } from './apiserver/api-server-plugin.js';
import { createEmbeddedSource } from './apiserver/embedded/embedded-source.js';
import { metricsPlugin } from './http/metrics-route.js';
import { probesPlugin } from './http/probes.js';
import { createMetrics } from './metrics/metrics.js';
import { MemoryStore } from './store/memory-store.js';

/** GIT_VERSION is the Kubernetes version the embedded API reports; kubectl picks its build from it. */
const GIT_VERSION = 'v1.32.0';

/** App is one running (or ready to run) cachegate. */
export interface App {
  readonly fastify: FastifyInstance;
  /** start listens and resolves with the base URL, once the service is ready. */
  start(): Promise<string>;
  /** stop turns readiness off, ends watches, drains requests and closes. */
  stop(): Promise<void>;
}

/** AppOptions: logger overrides the config's JSON logger (tests pass a silent one). */
export interface AppOptions {
  readonly logger?: Logger;
}

/** buildApp wires one instance of cachegate from a validated config. */
export async function buildApp(config: Config, opts: AppOptions = {}): Promise<App> {
  const logger = opts.logger ?? pino({ level: config.logLevel, redact: ['req.headers.authorization', 'headers.authorization'] });
  const loggerInstance: FastifyBaseLogger = logger;
  const fastify = Fastify({
    loggerInstance,
    // One line per request is logged by the onResponse hook below, instead of fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { maxParamLength: 512 },
    forceCloseConnections: 'idle',
  });
  const metrics = createMetrics();
  const store = new MemoryStore({ eventWindow: config.store.eventWindow });
  const embedded = createEmbeddedSource(store);
  let ready = false;

  fastify.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  fastify.addHook('onResponse', async (req, reply) => {
    req.log.info({ method: req.method, url: req.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });
  await fastify.register(metricsPlugin, { metrics });
  await fastify.register(probesPlugin, {
    readiness: {
      serving: () => {
        if (!ready) throw new Error('not serving (starting or shutting down)');
      },
    },
  });
  if (config.embedded.enabled) {
    await fastify.register(apiServerPlugin, {
      prefix: '/clusters/:cluster',
      store,
      catalog: embedded.catalog,
      hooks: embedded.hooks,
      clusterOf: embedded.clusterOf,
      requireNamespaces: true,
      gitVersion: GIT_VERSION,
      bodyLimit: config.limits.bodyBytes,
      watchLimits: {
        timeoutSeconds: config.watch.timeoutSeconds,
        bookmarkIntervalMs: config.watch.bookmarkIntervalSeconds * 1000,
        maxBufferedBytes: config.watch.maxBufferedBytes,
      },
    });
  }
  fastify.addHook('preClose', async () => {
    ready = false;
  });

  return {
    fastify,
    async start() {
      if (config.embedded.enabled) await embedded.prepare(config.embedded.clusters);
      const address = await fastify.listen({ host: config.host, port: config.port });
      ready = true;
      logger.info({ address }, 'cachegate is serving');
      return address;
    },
    async stop() {
      ready = false;
      await fastify.close();
    },
  };
}
