// The fastify instance of one app: its logger, body limit, request ids and one log line per
// request. Errors fastify raises before any route runs (a URL it cannot decode) are answered as
// Kubernetes Status objects like every other client mistake.

import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { statusOf } from '../apimachinery/status.js';
import { AppError } from '../errors.js';

/** createFastify makes the HTTP server every plugin registers on. */
export function createFastify(logger: Logger, bodyLimit: number): FastifyInstance {
  const loggerInstance: FastifyBaseLogger = logger;
  const fastify = Fastify({
    loggerInstance,
    // Every route (GraphQL's too) refuses a larger body with 413 (issue 7).
    bodyLimit,
    // One line per request is logged by the onResponse hook below, instead of fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { maxParamLength: 512 },
    forceCloseConnections: 'idle',
    frameworkErrors: (error, _req, reply) => {
      const plain: FastifyReply = reply;
      void plain.code(400).type('application/json; charset=utf-8').send(statusOf(new AppError('BadRequest', error.message)));
    },
  });
  fastify.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  fastify.addHook('onResponse', async (req, reply) => {
    req.log.info({ method: req.method, url: req.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });
  return fastify;
}
