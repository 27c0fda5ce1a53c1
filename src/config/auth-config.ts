// Completing the `auth` section once it is valid: the tokens of auth.tokensFile (kept outside the
// config, a mounted Secret) join the inline ones, the burst defaults to the rate, and the checks
// that span fields run. Error messages name the field, never a token's value.

import { parse as parseYaml } from 'yaml';
import type { Static } from '@sinclair/typebox';
import type { AuthConfig, TokenConfig } from './config.js';
import type { AuthSchema } from './auth-schema.js';
import { TokensFileSchema } from './auth-schema.js';
import { ConfigError } from './config-error.js';
import { compileValidator } from './config-validator.js';

/** completeAuth gives the AuthConfig of a validated `auth` section (undefined: authentication off). */
export function completeAuth(auth: Static<typeof AuthSchema> | undefined, readFile: (path: string) => string): AuthConfig | undefined {
  if (auth === undefined) return undefined;
  const { tokensFile, rateLimit, ...rest } = auth;
  const tokens = [...auth.tokens, ...(tokensFile === undefined ? [] : readTokensFile(tokensFile, readFile))].map(withoutDuplicateVerbs);
  if (tokens.length === 0) throw new ConfigError('auth.tokens', 'must hold at least one token (here or in auth.tokensFile)');
  refuseDuplicates(tokens);
  return {
    ...rest,
    tokens,
    ...(tokensFile === undefined ? {} : { tokensFile }),
    ...(rateLimit === undefined ? {} : { rateLimit: { requestsPerSecond: rateLimit.requestsPerSecond, burst: rateLimit.burst ?? rateLimit.requestsPerSecond } }),
  };
}

/** readTokensFile reads `{tokens: [...]}` (or a bare list) from YAML or JSON. */
function readTokensFile(file: string, readFile: (path: string) => string): TokenConfig[] {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFile(file));
  } catch (err) {
    // The parser's message may quote the file's text, which holds tokens: keep only its kind.
    const kind = err instanceof Error && err.name === 'YAMLParseError' ? 'is not valid YAML or JSON' : `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
    throw new ConfigError('auth.tokensFile', `${file} ${kind}`);
  }
  // Compiled here, not at import: most configs have no tokens file, and a compile costs tens of ms.
  const validate = compileValidator(TokensFileSchema);
  return validate(Array.isArray(parsed) ? { tokens: parsed } : parsed, `auth.tokensFile(${file})`).tokens;
}

function withoutDuplicateVerbs(token: TokenConfig): TokenConfig {
  return { ...token, verbs: [...new Set(token.verbs)] };
}

function refuseDuplicates(tokens: readonly TokenConfig[]): void {
  const seen = new Set<string>();
  tokens.forEach((t, i) => {
    if (seen.has(t.token)) throw new ConfigError(`auth.tokens[${i}]`, `the token of user "${t.user}" is given twice`);
    seen.add(t.token);
  });
}
