// CORS, so that a dashboard served from another origin may call the REST and GraphQL APIs from a
// browser. Off unless origins are configured. An allowed origin is echoed back (never `*`: a
// browser refuses `*` on a request with credentials, and the dashboard sends its bearer token);
// any other origin, or a request without one, gets no CORS header at all and is served as usual,
// for the browser is what enforces CORS. A preflight from an allowed origin is answered 204 in an
// onRequest hook, so it is registered before authentication (a browser sends no credentials with
// a preflight) and load shedding (a shed 503 or a refused 401 still reaches the page, readable).

import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** ANY_ORIGIN, as the only or one of the configured origins, allows every origin. */
const ANY_ORIGIN = '*';

/** OPAQUE_ORIGIN is what a sandboxed frame or a local file sends: never allowed, not even by `*`. */
const OPAQUE_ORIGIN = 'null';

/** CORS_METHODS are the methods the APIs serve to a browser. */
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** CORS_REQUEST_HEADERS are the request headers cachegate reads that a page may set. */
const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'If-None-Match', 'Last-Event-ID', 'X-Request-Id'];

/** CORS_EXPOSED_HEADERS are the response headers cachegate sends that a page may read. */
const CORS_EXPOSED_HEADERS = ['ETag', 'Retry-After', 'X-Cachegate-Resource-Version', 'X-Cachegate-Source', 'X-Request-Id'];

/** PREFLIGHT_MAX_AGE_SECONDS lets a browser reuse a preflight's answer instead of asking before every call. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

type OriginCheck = (origin: string | undefined) => boolean;
type ConstraintStrategy = Parameters<FastifyInstance['addConstraintStrategy']>[0];
type RouteStore = Parameters<ReturnType<ConstraintStrategy['storage']>['set']>[1];

/** PREFLIGHT_CONSTRAINT restricts the plugin's catch-all OPTIONS route to preflights (see below). */
const PREFLIGHT_CONSTRAINT = 'corsPreflight';
const PREFLIGHT = 'preflight';

/** registerCors answers CORS for the origins given; none registers nothing (no CORS header anywhere). */
export async function registerCors(fastify: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const isAllowed = originCheck(origins);
  onlyPreflightsReachCatchAllOptions(fastify);
  await fastify.register(cors, {
    // true echoes the request's origin, false leaves the request without any CORS header.
    origin: (origin, callback) => callback(null, isAllowed(origin)),
    credentials: true,
    methods: CORS_METHODS,
    allowedHeaders: CORS_REQUEST_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    // An OPTIONS from an allowed origin without Access-Control-Request-Method is no preflight a
    // browser sends: answering it as one costs nothing, where strict mode answers a plain-text 400.
    strictPreflight: false,
  });
}

function originCheck(origins: readonly string[]): OriginCheck {
  if (origins.includes(ANY_ORIGIN)) return (origin) => origin !== undefined && origin !== '' && origin !== OPAQUE_ORIGIN;
  const allowed = new Set(origins);
  return (origin) => origin !== undefined && allowed.has(origin);
}

/**
 * The plugin adds a route `OPTIONS *` so that a preflight matches a route. Left as it is, every
 * path would be served with OPTIONS: the not-found handler would answer an unknown path 405
 * "allowed: OPTIONS" instead of 404, and list OPTIONS in every 405's Allow. Constrained to real
 * preflights (an Origin and an Access-Control-Request-Method), the route is found for those only,
 * and stays out of the handler's search, which asks the router without constraints.
 */
function onlyPreflightsReachCatchAllOptions(fastify: FastifyInstance): void {
  fastify.addConstraintStrategy({
    name: PREFLIGHT_CONSTRAINT,
    storage: () => {
      const handlers = new Map<unknown, RouteStore>();
      return { get: (value) => handlers.get(value) ?? null, set: (value, handler) => void handlers.set(value, handler) };
    },
    deriveConstraint: (req) => (req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined ? PREFLIGHT : undefined),
  });
  fastify.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && route.url === '*') route.constraints = { ...route.constraints, [PREFLIGHT_CONSTRAINT]: PREFLIGHT };
  });
}
