// Authentication of GraphQL WebSocket connections (issue 7). Browsers cannot set headers on a
// WebSocket, so graphql-ws clients send the token in the connection_init payload, as
// `{ authorization: "Bearer <token>" }` or `{ headers: { authorization: "Bearer <token>" } }`.
// A connection that names no token keeps what its upgrade request's header gave (if anything).

import type { Principal } from './principal.js';
import type { TokenAuthenticator } from './token-authenticator.js';

/** ConnectionAuth is what connection_init decided: a principal, nothing to decide, or refused. */
export type ConnectionAuth = { readonly principal: Principal } | 'no-token' | 'refused';

/** authenticateConnection reads the bearer token of a connection_init payload. */
export function authenticateConnection(authenticator: TokenAuthenticator, payload: unknown): ConnectionAuth {
  const authorization = authorizationOf(payload);
  if (authorization === undefined) return 'no-token';
  try {
    return { principal: authenticator.authenticate(authorization) };
  } catch {
    return 'refused';
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
