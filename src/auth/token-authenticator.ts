// Bearer-token authentication. Tokens are compared in constant time: the presented
// token and every configured one are hashed to SHA-256 (fixed length, so timingSafeEqual applies
// and the token's length leaks nothing), and every entry is compared, with no early exit. Only
// digests are kept; no token is ever logged or put in an error message.

import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Principal } from './principal.js';

/** Credential is one accepted token and the principal it stands for. */
export interface Credential {
  readonly token: string;
  readonly principal: Principal;
}

interface Entry {
  readonly digest: Buffer;
  readonly principal: Principal;
}

const BEARER = /^Bearer +(\S+) *$/i;

/** TokenAuthenticator finds the principal of a bearer token. */
export class TokenAuthenticator {
  readonly #entries: readonly Entry[];

  constructor(credentials: readonly Credential[]) {
    this.#entries = credentials.map((c) => ({ digest: digestOf(c.token), principal: c.principal }));
  }

  /** authenticate reads an `Authorization` header value; Unauthorized when absent, malformed or unknown. */
  authenticate(authorization: string | undefined): Principal {
    if (authorization === undefined || authorization === '') throw unauthorized('no bearer token given (Authorization: Bearer <token>)');
    const match = BEARER.exec(authorization);
    if (!match?.[1]) throw unauthorized('the Authorization header must be "Bearer <token>"');
    const principal = this.lookup(match[1]);
    if (principal === undefined) throw unauthorized('invalid bearer token');
    return principal;
  }

  /** lookup compares a token with every entry in constant time; undefined when none matches. */
  lookup(token: string): Principal | undefined {
    const digest = digestOf(token);
    let found: Principal | undefined;
    for (const entry of this.#entries) {
      // No early exit: the time taken must not tell which entry (if any) matched.
      if (timingSafeEqual(digest, entry.digest)) found = entry.principal;
    }
    return found;
  }
}

function digestOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function unauthorized(message: string): AppError {
  return new AppError('Unauthorized', `Unauthorized: ${message}`);
}
