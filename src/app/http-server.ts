// The fastify instance of one app: its logger, body limit, request ids, one log line per request,
// and the tracker that closes its connections gracefully. Every error body it answers is a
// Kubernetes Status, written by one helper (sendStatus): what a route throws (the error handler
// every plugin inherits unless it sets its own), a path no route serves (404, or 405 when other
// methods serve it), what fastify raises before any route runs (a URL it cannot decode), what
// Node's parser refuses before fastify sees it (400, 408, 431), and requests still arriving on
// open connections once the listener is closed (503).

import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { sendError, sendStatus } from '../apimachinery/status.js';
import { AppError } from '../errors.js';
import { clientErrorHandler } from '../http/client-error-handler.js';
import { ConnectionTracker } from '../http/connection-tracker.js';
import { redactUrl } from '../http/redact-url.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/request-id.js';
import { answerUnmatchedRoute } from '../http/unmatched-route.js';

/** HttpServer is the fastify instance and the tracker of its connections. */
export interface HttpServer {
  readonly fastify: FastifyInstance;
  readonly connections: ConnectionTracker;
}

/** createHttpServer makes the HTTP server every plugin registers on. */
export function createHttpServer(logger: Logger, bodyLimit: number): HttpServer {
  const loggerInstance: FastifyBaseLogger = logger;
  const fastify = Fastify({
    loggerInstance,
    // Every route (GraphQL's too) refuses a larger body with 413.
    bodyLimit,
    // One line per request is logged by the onResponse hook below, instead of fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // A client's id is used only when it is safe to echo and log (requestIdOf).
    requestIdHeader: false,
    genReqId: (req) => requestIdOf(req.headers),
    // compile: the routing tree becomes generated code once every route is registered. A parametric
    // route (a point read: four parameters) then costs about 2 µs less CPU per request in the
    // system bench; matching is the same, and a percent-encoded URL takes the decoding path as before.
    routerOptions: { maxParamLength: 512, compile: true },
    // The tracker closes connections (drain, then a grace for idle ones) and answers requests
    // that arrive while closing with a Status instead of fastify's own 503 body.
    forceCloseConnections: false,
    return503OnClosing: false,
    frameworkErrors: (error, _req, reply) => {
      sendStatus(reply, new AppError('BadRequest', error.message));
    },
    clientErrorHandler: clientErrorHandler(loggerInstance),
  });
  fastify.setErrorHandler(sendError);
  fastify.setNotFoundHandler(answerUnmatchedRoute);
  const connections = new ConnectionTracker(fastify.server);
  // Registered before any plugin, so it runs before authentication and every route. The answer
  // waits for the listener to close: a client answered earlier would reconnect into it just then.
  // It stays async although the other per-request hooks take a callback: as a callback hook it let
  // a synchronous handler answer inside the HTTP parser's request event, and the system bench's
  // point read then cost 62-65 µs of CPU per request instead of 52-54 µs.
  fastify.addHook('onRequest', async (_req, reply) => {
    const listenerClosed = connections.listenerClosed;
    if (listenerClosed === undefined) return undefined;
    await listenerClosed;
    const error = new AppError('ServiceUnavailable', 'the server is shutting down; retry on another instance');
    return sendStatus(reply.header('connection', 'close'), error);
  });
  // Hooks every request runs take a callback: an async hook costs each request a promise.
  fastify.addHook('onSend', (req, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    done(null, payload);
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    if (logger.isLevelEnabled('info')) {
      req.log.info({ method: req.method, url: redactUrl(req.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    }
    done();
  });
  return { fastify, connections };
}
