// A copy's name is derived from its original, so labels that name a different original than the
// copy's own name are not to be believed (someone edited the copy). trustedOrigin returns the
// origin only when the labels and the name agree.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { hashedName, isCachedObjectReadableName } from './cached-object-name.js';
import type { CachedObjectOrigin } from './cached-object-origin.js';
import { cachedObjectOrigin } from './cached-object-origin.js';

/** trustedOrigin is the copy's origin when its labels agree with its name, else undefined. */
export function trustedOrigin(co: KubeObject): CachedObjectOrigin | undefined {
  const origin = cachedObjectOrigin(co);
  if (origin === undefined) return undefined;
  const name = co.metadata.name ?? '';
  // Asked for every copy event: the readable name is compared piece by piece, not built.
  if (isCachedObjectReadableName(name, origin.gvr, origin.namespace, origin.name)) return origin;
  return name === hashedName(origin.gvr, origin.namespace, origin.name) ? origin : undefined;
}
