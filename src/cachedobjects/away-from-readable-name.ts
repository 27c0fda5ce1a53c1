// An index of the objects that are not where a copy normally sits. A copy is named the readable way
// unless that name cannot be used, so the cache's objects under any other name are few: copies named
// the hashed way, copies whose labels were edited, objects stored there by hand. While a location
// files none of them, no object can sit at an original's hashed name, and finding a copy does not
// need to work that name out (a SHA-256 per new copy of a sync; see the replication CopyStore).
//
// Filed under AWAY is every object for which trustedOrigin would not accept the readable name
// without hashing: an object with no origin, or whose name is not the valid readable name of the
// origin its labels give. Filing too much only costs the lookup it would save; filing too little
// would let a tampered copy at a hashed name go unrepaired, so the test is the same one trustedOrigin makes.

import type { KubeObject } from '../apimachinery/object-meta.js';
import type { IndexFunc } from '../store/store.js';
import { isCachedObjectReadableName } from './cached-object-name.js';
import { ORIGIN_FIELDS, hasOrigin } from './cached-object-origin.js';

/** AWAY_FROM_READABLE_NAME files the objects that are not at the readable name of their origin, all under AWAY. */
export const AWAY_FROM_READABLE_NAME = 'cachegate-awayFromReadableName';

/** AWAY is the one value of AWAY_FROM_READABLE_NAME. */
export const AWAY = 'away';

const AWAY_VALUES: readonly string[] = [AWAY];
const NONE: readonly string[] = [];

/** awayFromReadableName is the AWAY_FROM_READABLE_NAME index function. */
export const awayFromReadableName: IndexFunc = (obj) => (isAtReadableName(obj) ? NONE : AWAY_VALUES);

/** isAtReadableName: the object's name is the valid readable name of the origin its labels give. */
export function isAtReadableName(obj: KubeObject): boolean {
  const name = obj.metadata.name ?? '';
  if (!hasOrigin(obj)) return false;
  const gvr = { group: ORIGIN_FIELDS.group(obj), version: ORIGIN_FIELDS.version(obj), resource: ORIGIN_FIELDS.resource(obj) };
  return isCachedObjectReadableName(name, gvr, ORIGIN_FIELDS.namespace(obj), ORIGIN_FIELDS.name(obj));
}
