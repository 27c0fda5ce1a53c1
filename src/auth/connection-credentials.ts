// Authentication of GraphQL WebSocket connections. Browsers cannot set headers on a
// WebSocket, so graphql-ws clients send the token in the connection_init payload, as
// `{ authorization: "Bearer <token>" }` or `{ headers: { authorization: "Bearer <token>" } }`.
// A payload that names no token falls back on the upgrade request's Authorization header (which
// the auth hook has already checked, if present). No token at all refuses the connection: the
// GraphQL gate closes it before it may send a document.

import type { Principal } from './principal.js';
import type { TokenAuthenticator } from './token-authenticator.js';

/**
 * authenticateConnection is the principal of a connection: from its connection_init payload's
 * token if it names one (which then decides), else from its upgrade request's Authorization
 * header; undefined when that token is missing, malformed or unknown.
 */
export function authenticateConnection(authenticator: TokenAuthenticator, payload: unknown, upgradeAuthorization: string | undefined): Principal | undefined {
  const authorization = authorizationOf(payload) ?? upgradeAuthorization;
  if (authorization === undefined) return undefined;
  try {
    return authenticator.authenticate(authorization);
  } catch {
    return undefined;
  }
}

function authorizationOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const fields = payload as Record<string, unknown>;
  const headers = typeof fields['headers'] === 'object' && fields['headers'] !== null ? fields['headers'] as Record<string, unknown> : {};
  for (const value of [fields['authorization'], fields['Authorization'], headers['authorization'], headers['Authorization']]) {
    if (typeof value === 'string') return value;
  }
  return undefined;
}
