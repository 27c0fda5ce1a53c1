// Reading the `auth` section: bearer tokens given inline and/or in a tokens file kept
// outside the config (a mounted Secret), the /metrics policy and the per-token rate limit. Error
// messages name the field, never a token's value.

import { parse as parseYaml } from 'yaml';
import type { AccessVerb, AuthConfig, RateLimitConfig, TokenConfig } from './config.js';
import { LOGICAL_CLUSTER_NAME_PATTERN } from '../apimachinery/logical-cluster.js';
import { ConfigError } from './config-error.js';
import { FieldReader } from './field-reader.js';

/** MIN_TOKEN_LENGTH: shorter tokens are guessable; 16 characters is the floor, 32+ random bytes is advised. */
export const MIN_TOKEN_LENGTH = 16;

// Visible ASCII: a token travels in an HTTP header and must survive it unchanged.
const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;
const VERBS: readonly AccessVerb[] = ['read', 'write'];

/** readAuth reads `auth` (undefined when absent: authentication off). readFile loads auth.tokensFile. */
export function readAuth(r: FieldReader, readFile: (path: string) => string): AuthConfig | undefined {
  const auth = r.optionalObject('auth', (a) => {
    const inline = a.list('tokens', [], readToken);
    const tokensFile = a.optionalString('tokensFile');
    const fromFile = tokensFile === undefined ? [] : readTokensFile(tokensFile, readFile);
    const config: AuthConfig = {
      tokens: [...inline, ...fromFile],
      ...(tokensFile === undefined ? {} : { tokensFile }),
      metrics: a.oneOf('metrics', 'open', ['open', 'protected'] as const),
      ...optionalRateLimit(a),
    };
    return config;
  });
  if (auth === undefined) return undefined;
  if (auth.tokens.length === 0) throw new ConfigError('auth.tokens', 'must hold at least one token (here or in auth.tokensFile)');
  refuseDuplicates(auth.tokens);
  return auth;
}

function optionalRateLimit(a: FieldReader): { rateLimit?: RateLimitConfig } {
  const rateLimit = a.optionalObject('rateLimit', (l) => {
    const requestsPerSecond = l.integer('requestsPerSecond', 0, 1, 1_000_000);
    return { requestsPerSecond, burst: l.integer('burst', requestsPerSecond, 1, 10_000_000) };
  });
  return rateLimit === undefined ? {} : { rateLimit };
}

function readToken(value: unknown, path: string): TokenConfig {
  const r = new FieldReader(value, path);
  const token = r.string('token', '');
  if (token.length < MIN_TOKEN_LENGTH) throw new ConfigError(`${path}.token`, `must be at least ${MIN_TOKEN_LENGTH} characters`);
  if (!TOKEN_CHARACTERS.test(token)) throw new ConfigError(`${path}.token`, 'must be visible ASCII characters without spaces');
  const user = r.string('user', '', /^\S(.*\S)?$/, 'must be a non-empty name');
  const clusters = r.optionalList('clusters', (v, p) => clusterName(v, p));
  if (clusters !== undefined && clusters.length === 0) {
    throw new ConfigError(`${path}.clusters`, 'must name at least one logical cluster (leave it out for every cluster)');
  }
  const verbs = r.list('verbs', VERBS, (v, p) => verb(v, p));
  if (verbs.length === 0) throw new ConfigError(`${path}.verbs`, 'must name read, write or both');
  r.done();
  return { token, user, ...(clusters === undefined ? {} : { clusters }), verbs: [...new Set(verbs)] };
}

/** readTokensFile reads `{tokens: [...]}` (or a bare list) from YAML or JSON. */
function readTokensFile(file: string, readFile: (path: string) => string): TokenConfig[] {
  const where = `auth.tokensFile(${file})`;
  let parsed: unknown;
  try {
    parsed = parseYaml(readFile(file));
  } catch (err) {
    // The parser's message may quote the file's text, which holds tokens: keep only its kind.
    const kind = err instanceof Error && err.name === 'YAMLParseError' ? 'is not valid YAML or JSON' : `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
    throw new ConfigError('auth.tokensFile', `${file} ${kind}`);
  }
  const list = Array.isArray(parsed) ? parsed : new FieldReader(parsed, where).list('tokens', [], (v) => v);
  if (!Array.isArray(parsed)) {
    const keys = Object.keys(parsed as object).filter((k) => k !== 'tokens');
    if (keys.length > 0) throw new ConfigError(`${where}.${keys[0]}`, 'unknown field');
  }
  return list.map((v, i) => readToken(v, `${where}.tokens[${i}]`));
}

function refuseDuplicates(tokens: readonly TokenConfig[]): void {
  const seen = new Set<string>();
  tokens.forEach((t, i) => {
    if (seen.has(t.token)) throw new ConfigError(`auth.tokens[${i}]`, `the token of user "${t.user}" is given twice`);
    seen.add(t.token);
  });
}

function clusterName(value: unknown, path: string): string {
  if (typeof value !== 'string' || !LOGICAL_CLUSTER_NAME_PATTERN.test(value)) {
    throw new ConfigError(path, `must be a logical cluster name matching ${LOGICAL_CLUSTER_NAME_PATTERN.source}`);
  }
  return value;
}

function verb(value: unknown, path: string): AccessVerb {
  if (typeof value !== 'string' || !VERBS.includes(value as AccessVerb)) throw new ConfigError(path, `must be one of ${VERBS.join(', ')}`);
  return value as AccessVerb;
}
