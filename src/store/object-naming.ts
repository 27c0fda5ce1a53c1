// Names and timestamps a store gives new objects: a name from generateName plus five random
// characters of the Kubernetes name generator's alphabet, and creation timestamps in RFC 3339
// seconds, shared by every object created in the same second.

import { randomInt } from 'node:crypto';
import { flatString } from '../apimachinery/flat-string.js';
import type { ObjectMeta } from '../apimachinery/object-meta.js';
import type { ClusterTable } from './object-table.js';
import { alreadyExists, nameRequired } from './store-errors.js';
import type { ResourceRef } from './store.js';
import { rfc3339Seconds } from './write-rules.js';

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const SUFFIX_LENGTH = 5;
/** GENERATE_NAME_ATTEMPTS bounds the retries on a generated-name collision (27^5 names per prefix). */
const GENERATE_NAME_ATTEMPTS = 16;

/** defaultRandomSuffix draws 5 characters from the Kubernetes name-generator alphabet. */
export function defaultRandomSuffix(): string {
  let out = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) out += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
  return out;
}

/** pickName returns meta.name if free, else a free generated name; AlreadyExists or Invalid otherwise. */
export function pickName(
  cluster: ClusterTable | undefined,
  ref: ResourceRef,
  namespace: string,
  meta: ObjectMeta,
  randomSuffix: () => string,
): string {
  if (meta.name !== undefined && meta.name !== '') {
    if (cluster?.get(namespace, meta.name) !== undefined) throw alreadyExists(ref.group, ref.resource, meta.name);
    return meta.name;
  }
  if (meta.generateName === undefined || meta.generateName === '') throw nameRequired(ref.group, ref.resource);
  let name = '';
  for (let attempt = 0; attempt < GENERATE_NAME_ATTEMPTS; attempt++) {
    name = flatString(meta.generateName + randomSuffix());
    if (cluster?.get(namespace, name) === undefined) return name;
  }
  throw alreadyExists(ref.group, ref.resource, name);
}

/** SecondStamps formats creation timestamps, formatting each second once. */
export class SecondStamps {
  private second = Number.NaN;
  private text = '';

  constructor(private readonly now: () => Date) {}

  /** stamp is the current time as `2026-11-29T14:52:30Z`. */
  stamp(): string {
    const date = this.now();
    const second = Math.floor(date.getTime() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.text = rfc3339Seconds(date);
    }
    return this.text;
  }
}
