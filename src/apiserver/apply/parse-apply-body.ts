// The body of a server-side apply: one YAML document (JSON being YAML, the Python client's JSON
// bodies read the same). Anything unreadable is the client's mistake: 400, never a 500.

import { parseDocument } from 'yaml';
import { AppError } from '../../errors.js';
import { assertJsonDepth } from '../../apimachinery/json-depth.js';

/** parseApplyBody reads an apply body into plain JSON values; empty → undefined. */
export function parseApplyBody(text: string): unknown {
  if (text.trim() === '') return undefined;
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
