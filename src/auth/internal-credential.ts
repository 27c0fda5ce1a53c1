// The internal credential: when auth is on, cachegate's controllers reach the embedded
// source over HTTP on its own port like any client, so they need a token too. One is made per app
// instance from 32 random bytes; it lives only in memory (never in config or logs) and stands for
// an all-cluster read-write principal that is never rate limited.

import { randomBytes } from 'node:crypto';
import { internalPrincipal } from './principal.js';
import type { Credential } from './token-authenticator.js';

/** createInternalCredential makes this app instance's own token and principal. */
export function createInternalCredential(): Credential {
  return { token: randomBytes(32).toString('base64url'), principal: internalPrincipal() };
}
