// Credentials sometimes travel in a URL's query (`?access_token=`, a presigned `signature=`), and a
// logged URL would keep them. redactUrl keeps the path and every parameter name, and replaces the
// value of each parameter whose name looks like a credential.

/** REDACTED stands in for a removed value, as pino writes redacted fields. */
export const REDACTED = '[Redacted]';

/** CREDENTIAL_NAMES are parameter names that are credentials whole (compared lowercased, `-` read as `_`). */
const CREDENTIAL_NAMES: ReadonlySet<string> = new Set([
  'auth', 'authorization', 'bearer', 'jwt', 'key', 'sig', 'code', 'pass', 'pwd', 'session', 'sessionid', 'session_id', 'sid',
]);

/** CREDENTIAL_PARTS mark a credential anywhere in the name: `access_token`, `client_secret`, `x_amz_signature`, `db_password`. */
const CREDENTIAL_PARTS: readonly string[] = ['token', 'secret', 'password', 'passwd', 'credential', 'signature', 'apikey', 'api_key'];

/**
 * MAY_HOLD_CREDENTIAL finds, anywhere in a query, a word whose presence in a name makes the name
 * a credential (`_` matching `-` as well), or an encoded character (`%`, `+`) that could hide one:
 * a query without either holds no credential name. Every request with a query is logged, and this
 * one test spares the usual query (`?cluster=root&limit=500`) the split and the per-name decoding
 * (1-2 µs).
 */
const MAY_HOLD_CREDENTIAL = new RegExp(
  [...[...CREDENTIAL_NAMES, ...CREDENTIAL_PARTS].map((word) => word.replaceAll('_', '[_-]')), '[%+]'].join('|'),
  'i',
);

/** isCredentialParam tells whether a query parameter name looks like it carries a credential. */
export function isCredentialParam(rawName: string): boolean {
  const name = decodeName(rawName).toLowerCase().replaceAll('-', '_');
  return CREDENTIAL_NAMES.has(name) || CREDENTIAL_PARTS.some((part) => name.includes(part));
}

/** redactUrl is url with the value of every credential-looking query parameter replaced by REDACTED. */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question < 0) return url;
  const query = url.slice(question + 1);
  if (!MAY_HOLD_CREDENTIAL.test(query)) return url;
  const params = query.split('&').map((param) => {
    const equals = param.indexOf('=');
    if (equals < 0 || !isCredentialParam(param.slice(0, equals))) return param;
    return `${param.slice(0, equals)}=${REDACTED}`;
  });
  return `${url.slice(0, question)}?${params.join('&')}`;
}

/** decodeName reads a percent-encoded (or form-encoded) name; a malformed one is taken as sent. */
function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}
