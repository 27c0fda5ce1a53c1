// /metrics in the Prometheus text format, and the hook that times every request.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendStatus } from '../apimachinery/status.js';
import { seesEverything } from '../auth/authorizer.js';
import { principalOf } from '../auth/request-principal.js';
import { AppError } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';

/**
 * metricsPlugin serves /metrics and records each request's duration by route template. It is
 * registered without encapsulation so its hook sees every route of the app.
 */
export const metricsPlugin = Object.assign(metricsRoutes, { [Symbol.for('skip-override')]: true });

async function metricsRoutes(app: FastifyInstance, opts: { readonly metrics: Metrics }): Promise<void> {
  const { registry, httpRequestDuration } = opts.metrics;
  app.get('/metrics', async (req, reply) => {
    const refused = refusal(req);
    if (refused !== undefined) return sendStatus(reply, refused);
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  app.addHook('onResponse', (req, reply, done) => {
    httpRequestDuration.observe(
      { method: req.method, route: req.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/**
 * refusal says why a principal may not scrape: the series name every logical cluster and count
 * its objects, so only a token that reads every cluster may see them. No principal means auth is
 * off or /metrics is configured open.
 */
function refusal(req: FastifyRequest): AppError | undefined {
  const principal = principalOf(req);
  if (principal === null || seesEverything(principal)) return undefined;
  return new AppError('Forbidden', `user "${principal.user}" may not read /metrics: it needs a token that reads every logical cluster`);
}
