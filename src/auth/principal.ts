// Who a request acts as, once its bearer token is known. A Principal is made once per
// configured token (and once for the internal credential) and shared by every request of that
// token, so it also keys the token's rate-limit bucket.

import type { AccessVerb, TokenConfig } from '../config/config.js';

/** Principal is an authenticated caller: its name, the logical clusters and the verbs it may use. */
export interface Principal {
  readonly user: string;
  /** clusters is the allow-list of logical clusters; undefined = every cluster. */
  readonly clusters?: ReadonlySet<string>;
  readonly verbs: ReadonlySet<AccessVerb>;
  /** internal marks cachegate's own credential (its controllers): never rate limited. */
  readonly internal: boolean;
}

/** principalOfToken is the Principal of one configured token. */
export function principalOfToken(token: TokenConfig): Principal {
  return Object.freeze({
    user: token.user,
    ...(token.clusters === undefined ? {} : { clusters: new Set(token.clusters) }),
    verbs: new Set(token.verbs),
    internal: false,
  });
}

/** INTERNAL_USER names the internal credential's principal in logs. */
export const INTERNAL_USER = 'system:cachegate';

/** internalPrincipal reads and writes every cluster: what the controllers need on the embedded source. */
export function internalPrincipal(): Principal {
  return Object.freeze({ user: INTERNAL_USER, verbs: new Set<AccessVerb>(['read', 'write']), internal: true });
}
