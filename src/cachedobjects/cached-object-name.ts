// The name of the CachedObject that wraps one original (README.md here). The readable form is
// tried first; a hashed form takes over when the readable one cannot be used. Nothing ever parses
// these names back: lookups go through labels and indexes.

import { AppError } from '../errors.js';
import { groupName, schemaOf } from '../apimachinery/gvr.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import { flatString } from '../apimachinery/flat-string.js';
import { isDNS1123Subdomain } from '../apimachinery/validation.js';
import { sha256Base36 } from './sha256-base36.js';

/** NameTakenCheck tells whether a candidate name is already held by a different original. */
export type NameTakenCheck = (candidate: string) => boolean;

const NEVER_TAKEN: NameTakenCheck = () => false;

/** MAX_NAME_LENGTH is the longest object name Kubernetes accepts (a DNS-1123 subdomain). */
const MAX_NAME_LENGTH = 253;

/**
 * cachedObjectName names the CachedObject of an original: `<schema>.<name>` (cluster-scoped,
 * namespace '') or `<schema>.<namespace>.<name>`, else the hashed form (hashedName) when that is longer than
 * 253 characters, not a valid object name, or taken by another original (isTaken must answer
 * false for a name this same original already holds).
 */
export function cachedObjectName(
  gvr: GroupVersionResource,
  namespace: string,
  name: string,
  isTaken: NameTakenCheck = NEVER_TAKEN,
): string {
  // The name is kept as long as the copy lives: store it flat (see flat-string.ts).
  return flatString(chosenName(gvr, namespace, name, isTaken));
}

/**
 * cachedObjectNameToFind is the name cachedObjectName gives (nothing taken), for a lookup or a
 * comparison: not copied flat, since nothing keeps it (a sync asks for it several times per copy).
 */
export function cachedObjectNameToFind(gvr: GroupVersionResource, namespace: string, name: string): string {
  return chosenName(gvr, namespace, name, NEVER_TAKEN);
}

function chosenName(gvr: GroupVersionResource, namespace: string, name: string, isTaken: NameTakenCheck): string {
  const readable = namespace === '' ? `${schemaOf(gvr)}.${name}` : `${schemaOf(gvr)}.${namespace}.${name}`;
  // The subdomain check covers the 253 limit and also names some resources allow (e.g. RBAC's
  // `system:foo`) that would not make a valid CachedObject name.
  if (isDNS1123Subdomain(readable).length === 0 && !isTaken(readable)) return readable;
  const hashed = hashedName(gvr, namespace, name);
  if (isDNS1123Subdomain(hashed).length > 0) {
    throw new AppError('InternalError', `cannot name the cached copy of ${schemaOf(gvr)} ${namespace}/${name}: ${hashed} is not a valid name`);
  }
  if (isTaken(hashed)) {
    throw new AppError('InternalError', `cannot name the cached copy of ${schemaOf(gvr)} ${namespace}/${name}: ${hashed} is taken`);
  }
  return hashed;
}

/**
 * isReadableName tells whether candidate is the readable form of the original's name
 * (`<schema>.<name>`, or `<schema>.<namespace>.<name>`), valid as an object name or not; schema is
 * a GVR or its schema string. It reads candidate piece by piece and builds nothing: store indexes
 * ask it on every cache write (the by-schema-and-name key has the same form).
 */
export function isReadableName(candidate: string, schema: GroupVersionResource | string, namespace: string, name: string): boolean {
  let at: number;
  if (typeof schema === 'string') {
    at = afterPart(candidate, 0, schema);
  } else {
    at = afterPart(candidate, 0, schema.version);
    at = afterPart(candidate, at, schema.resource);
    at = afterPart(candidate, at, groupName(schema.group));
  }
  if (namespace !== '') at = afterPart(candidate, at, namespace);
  return at >= 0 && candidate.length === at + name.length && candidate.startsWith(name, at);
}

/**
 * isCachedObjectReadableName tells whether candidate is the name cachedObjectName gives an
 * original when nothing holds it: its readable form, valid as a name. Nothing is built.
 */
export function isCachedObjectReadableName(candidate: string, gvr: GroupVersionResource, namespace: string, name: string): boolean {
  return isReadableName(candidate, gvr, namespace, name) && isDNS1123Subdomain(candidate).length === 0;
}

const DOT = 0x2e;

// afterPart is where the next part of candidate starts once `<part>.` is read at `at`; -1 when it is not there (or at is -1 already).
function afterPart(candidate: string, at: number, part: string): number {
  if (at < 0 || !candidate.startsWith(part, at) || candidate.charCodeAt(at + part.length) !== DOT) return -1;
  return at + part.length + 1;
}

/**
 * hashedName gives `<schema>.<h>`, h = base36 SHA-256 of `<group>/<version>/<resource>/<namespace>/<name>`.
 * A schema near the 253-character limit (a CRD's `<plural>.<group>` may itself be 253) leaves no
 * room for the hash; h alone is then the name, still unique since it covers the GVR too.
 */
export function hashedName(gvr: GroupVersionResource, namespace: string, name: string): string {
  const identity = `${groupName(gvr.group)}/${gvr.version}/${gvr.resource}/${namespace}/${name}`;
  const hash = sha256Base36(identity);
  const schema = schemaOf(gvr);
  return schema.length + 1 + hash.length <= MAX_NAME_LENGTH ? `${schema}.${hash}` : hash;
}
