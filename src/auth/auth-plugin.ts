// Enforcing authentication on every route. An onRequest hook on the root instance reads
// `Authorization: Bearer <token>` before any route runs: no token or an unknown one is 401, a
// token over its rate is 429 with Retry-After; the principal found is put on the request for the
// routes to authorize with (authorizer.ts). Probes are always open; /metrics when configured so;
// the public routes app.ts names (the GraphiQL page and the dashboard, static files only) too.
// A real WebSocket handshake on /graphql without the header is let through (websocket-handshake.ts:
// a GET that Node hands to the WebSocket server, never an HTTP request that merely carries an
// Upgrade header): graphql-ws clients send their token in the connection_init payload, and the
// GraphQL plugin closes a socket that has none before it may send a document
// (connection-credentials.ts, src/graphql/subscription-gate.ts).
// A request asking to act as another user (impersonation headers) is 403 (impersonation.ts).
// Errors are Kubernetes Status objects, except on /graphql, where they are GraphQL errors with
// extensions.code (UNAUTHENTICATED, TOO_MANY_REQUESTS) from the one error table.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendStatus } from '../apimachinery/status.js';
import { AppError, ERROR_TABLE, toAppError } from '../errors.js';
import { impersonationRefusal } from './impersonation.js';
import type { Principal } from './principal.js';
import type { TokenBucketLimiter } from './rate-limiter.js';
import './request-principal.js';
import type { TokenAuthenticator } from './token-authenticator.js';
import { isWebSocketHandshake } from './websocket-handshake.js';

/** ALWAYS_OPEN are the routes an orchestrator must reach without a token. */
export const ALWAYS_OPEN: ReadonlySet<string> = new Set(['/livez', '/readyz', '/healthz']);

/** GRAPHQL_PATH is answered with GraphQL-shaped errors. */
const GRAPHQL_PATH = '/graphql';

/** AuthPluginOptions: enforcement is on when authenticator is given. */
export interface AuthPluginOptions {
  readonly authenticator?: TokenAuthenticator;
  readonly limiter?: TokenBucketLimiter<Principal>;
  /** metricsOpen serves /metrics without a token. */
  readonly metricsOpen: boolean;
  /** publicRoutes are served without a token: pages of static files that hold no data (GraphiQL's, the dashboard's). */
  readonly publicRoutes?: ReadonlySet<string>;
}

/**
 * authPlugin decorates every request with `principal` and, when an authenticator is given,
 * enforces it. Registered without encapsulation so its hook sees every route of the app.
 */
export const authPlugin = Object.assign(registerAuth, { [Symbol.for('skip-override')]: true });

async function registerAuth(app: FastifyInstance, opts: AuthPluginOptions): Promise<void> {
  app.decorateRequest('principal', null);
  const { authenticator, limiter } = opts;
  if (authenticator === undefined) return;
  app.addHook('onRequest', async (req, reply) => {
    if (isOpen(req, opts)) return;
    if (isGraphqlUpgrade(req) && req.headers.authorization === undefined) return;
    let principal: Principal;
    try {
      principal = authenticator.authenticate(req.headers.authorization);
    } catch (err) {
      reply.header('www-authenticate', 'Bearer realm="cachegate"');
      return sendAuthError(req, reply, toAppError(err));
    }
    const retryAfterSeconds = principal.internal || limiter === undefined ? 0 : limiter.take(principal);
    if (retryAfterSeconds > 0) {
      const error = new AppError('TooManyRequests', `rate limit of user "${principal.user}" exceeded; retry after ${retryAfterSeconds}s`, { retryAfterSeconds });
      return sendAuthError(req, reply, error);
    }
    const impersonating = impersonationRefusal(req.headers, principal);
    if (impersonating !== undefined) return sendAuthError(req, reply, impersonating);
    req.principal = principal;
    return undefined;
  });
}

function isOpen(req: FastifyRequest, opts: AuthPluginOptions): boolean {
  const route = req.routeOptions.url;
  if (route === undefined) return false;
  return ALWAYS_OPEN.has(route) || opts.publicRoutes?.has(route) === true || (opts.metricsOpen && route === '/metrics');
}

function isGraphqlUpgrade(req: FastifyRequest): boolean {
  return req.routeOptions.url === GRAPHQL_PATH && isWebSocketHandshake(req.raw);
}

/** sendAuthError answers a refused request: a Status, or a GraphQL error list on /graphql. */
async function sendAuthError(req: FastifyRequest, reply: FastifyReply, error: AppError): Promise<FastifyReply> {
  // Node hands a request with `Connection: upgrade` to the WebSocket server's listener and reads no
  // more HTTP from its socket: refused, the connection ends with the answer (a client reusing it
  // would wait forever, and nothing else would close it).
  if ((req.raw as { upgrade?: unknown }).upgrade === true) {
    reply.header('connection', 'close');
    reply.raw.once('finish', () => req.raw.socket.end());
  }
  if (req.routeOptions.url !== GRAPHQL_PATH) return sendStatus(reply, error);
  if (error.details.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.details.retryAfterSeconds));
  const extensions = { code: ERROR_TABLE[error.code].graphqlCode, reason: error.code };
  return reply.code(error.httpStatus).type('application/json; charset=utf-8').send({ errors: [{ message: error.message, extensions }] });
}
