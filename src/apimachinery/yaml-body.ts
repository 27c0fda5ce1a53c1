// A YAML request body (a server-side apply configuration; JSON being YAML, the Python client's
// JSON bodies read the same). Anything unreadable is the client's mistake: 400, never a 500.
// The YAML composer is slow on deep nesting: a 600 KB body of nested flow mappings takes about a
// second of the event loop before any depth check on the result could refuse it. So the tokens are
// read first (the lexer is lazy and cheap) and the body is refused as soon as its nesting passes the
// JSON bound, long before the composer would run.

import { Lexer, parseDocument } from 'yaml';
import { AppError } from '../errors.js';
import { MAX_JSON_DEPTH, assertJsonDepth } from './json-depth.js';

/** parseYamlBody reads one YAML document into plain JSON values; empty → undefined. */
export function parseYamlBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (yamlNestingExceeds(text, MAX_JSON_DEPTH)) {
    throw new AppError('BadRequest', `error decoding YAML: the request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  // Core schema (YAML 1.2): `yes`/`no` stay strings, as Go's YAML-to-JSON reading of
  // Kubernetes objects needs; the alias bound stops an alias bomb from expanding.
  const doc = parseDocument(text, { schema: 'core', uniqueKeys: true });
  const [error] = doc.errors;
  if (error !== undefined) throw new AppError('BadRequest', `error decoding YAML: ${error.message}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new AppError('BadRequest', `error decoding YAML: ${(err as Error).message}`);
  }
  assertJsonDepth(value);
  return value;
}

/**
 * yamlNestingExceeds tells whether the text opens more than max collections at once, counting
 * open flow collections (`{`, `[`) and the block indicators (`-`, `?`) that open a collection on
 * the line they share. Nesting by indentation alone is not counted: the composer reads it quickly,
 * and the depth check on the parsed value still bounds it. Stops at the first token past the bound.
 */
export function yamlNestingExceeds(text: string, max: number): boolean {
  let flow = 0;
  let onLine = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '{' || token === '[') flow++;
    else if (token === '}' || token === ']') flow = Math.max(0, flow - 1);
    else if (token === '-' || token === '?') onLine++;
    else if (token === '\n' || token === '\r\n') onLine = 0;
    else continue;
    if (flow + onLine > max) return true;
  }
  return false;
}
