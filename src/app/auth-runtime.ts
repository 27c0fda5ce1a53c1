// The auth pieces of one app instance, built from config `auth`: the authenticator over
// the configured tokens plus this instance's internal credential (for its own controllers' calls
// to the embedded source), and the per-token rate limiter. Without `auth`, nothing is enforced.

import type { AuthConfig } from '../config/config.js';
import type { AuthPluginOptions } from '../auth/auth-plugin.js';
import { createInternalCredential } from '../auth/internal-credential.js';
import { principalOfToken } from '../auth/principal.js';
import type { Principal } from '../auth/principal.js';
import { TokenBucketLimiter } from '../auth/rate-limiter.js';
import { TokenAuthenticator } from '../auth/token-authenticator.js';

/** AuthRuntime is what app.ts hands to the HTTP layers; authenticator and internalToken are absent when auth is off. */
export interface AuthRuntime {
  readonly authenticator?: TokenAuthenticator;
  /** internalToken is the bearer token of this instance's controllers; never logged. */
  readonly internalToken?: string;
  /** plugin are the auth plugin's options (without the internal token). */
  readonly plugin: AuthPluginOptions;
}

/** createAuthRuntime builds the authenticator, limiter and internal credential of one app. */
export function createAuthRuntime(config: AuthConfig | undefined): AuthRuntime {
  if (config === undefined) return { plugin: { metricsOpen: true } };
  const internal = createInternalCredential();
  const configured = config.tokens.map((token) => ({ token: token.token, principal: principalOfToken(token) }));
  const authenticator = new TokenAuthenticator([...configured, internal]);
  return {
    authenticator,
    internalToken: internal.token,
    plugin: {
      authenticator,
      ...(config.rateLimit ? { limiter: new TokenBucketLimiter<Principal>(config.rateLimit) } : {}),
      metricsOpen: config.metrics === 'open',
    },
  };
}
