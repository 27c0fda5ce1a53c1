// The principal of a request, as the auth plugin found it. null when auth is off (every route is
// open and nothing is narrowed) and on the routes that are always open (probes).

import type { FastifyRequest } from 'fastify';
import type { Principal } from './principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** principal is who the request acts as; null = auth off or an open route. */
    principal: Principal | null;
  }
}

/** principalOf reads a request's principal (null = unrestricted). */
export function principalOf(req: FastifyRequest): Principal | null {
  return req.principal ?? null;
}
