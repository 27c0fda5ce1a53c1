// The `auth` section's schema, and that of a tokens file kept outside the config (a mounted
// Secret). Messages name the field, never a token's value.

import { Type } from '@sinclair/typebox';
import { listOf, logicalClusterName, oneOf, strictObject, wholeNumber } from './schema-builders.js';

/** MIN_TOKEN_LENGTH: shorter tokens are guessable; 16 characters is the floor, 32+ random bytes is advised. */
export const MIN_TOKEN_LENGTH = 16;

/** ACCESS_VERBS: read (get, list, watch) and write (every other verb). */
export const ACCESS_VERBS = ['read', 'write'] as const;

/** TokenSchema is one bearer token and what it may reach. */
export const TokenSchema = strictObject({
  // Visible ASCII: a token travels in an HTTP header and must survive it unchanged.
  token: Type.String({
    minLength: MIN_TOKEN_LENGTH, pattern: '^[\\x21-\\x7e]+$', title: `${MIN_TOKEN_LENGTH}+ visible ASCII characters`,
    hint: 'must be visible ASCII characters without spaces', description: 'the bearer token (32+ random characters advised)',
  }),
  user: Type.String({ pattern: '^\\S(.*\\S)?$', title: 'name', hint: 'must be a non-empty name', description: 'who holds it, in logs and errors' }),
  clusters: Type.Optional(listOf(logicalClusterName(), {
    minItems: 1, title: 'list of logical cluster names', defaultText: 'every cluster', hint: 'must name at least one logical cluster (leave it out for every cluster)',
    description: 'the only logical clusters it may reach',
  })),
  verbs: listOf(oneOf(ACCESS_VERBS, {}), { minItems: 1, default: [...ACCESS_VERBS], hint: 'must name read, write or both', description: 'what it may do' }),
});

/** TokensFileSchema is a tokens file: `tokens:` and the same list as the config's. */
export const TokensFileSchema = strictObject({ tokens: listOf(TokenSchema, { default: [] }) });

/** AuthSchema is the `auth` section; present, it turns authentication on. */
export const AuthSchema = strictObject({
  tokens: listOf(TokenSchema, { default: [], description: 'the bearer tokens (with those of `tokensFile`, at least one)' }),
  tokensFile: Type.Optional(Type.String({ minLength: 1, title: 'path', hint: 'must be a non-empty string', description: 'a YAML or JSON file of more tokens, e.g. a mounted Secret' })),
  metrics: oneOf(['open', 'protected'], { default: 'open', description: '`protected`: /metrics needs a token of every cluster' }),
  rateLimit: Type.Optional(strictObject({
    requestsPerSecond: wholeNumber(1, 1_000_000, { description: 'requests each token may send per second (more: 429)' }),
    burst: Type.Optional(wholeNumber(1, 10_000_000, { defaultText: 'requestsPerSecond', description: 'burst above that rate' })),
  }, { description: 'a per-token rate limit' })),
}, { description: 'turns bearer-token authentication on (see "Authentication")' });
