// /metrics in the Prometheus text format, and the hook that times every request.

import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/metrics.js';

/**
 * metricsPlugin serves /metrics and records each request's duration by route template. It is
 * registered without encapsulation so its hook sees every route of the app.
 */
export const metricsPlugin = Object.assign(metricsRoutes, { [Symbol.for('skip-override')]: true });

async function metricsRoutes(app: FastifyInstance, opts: { readonly metrics: Metrics }): Promise<void> {
  const { registry, httpRequestDuration } = opts.metrics;
  app.get('/metrics', async (_req, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  app.addHook('onResponse', async (req, reply) => {
    httpRequestDuration.observe(
      { method: req.method, route: req.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}
