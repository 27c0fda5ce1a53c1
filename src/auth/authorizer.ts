// What a Principal may do: read or write one logical cluster, and which clusters its lists and
// watches are narrowed to. Denials are Forbidden AppErrors (403, GraphQL FORBIDDEN) that name the
// user, the verb and the cluster, never the token.

import { AppError } from '../errors.js';
import type { AccessVerb } from '../config/config.js';
import type { Principal } from './principal.js';

/** canRead tells whether the principal may get, list and watch in a logical cluster. */
export function canRead(principal: Principal, cluster: string): boolean {
  return principal.verbs.has('read') && reaches(principal, cluster);
}

/** canWrite tells whether the principal may create, update, patch and delete in a logical cluster. */
export function canWrite(principal: Principal, cluster: string): boolean {
  return principal.verbs.has('write') && reaches(principal, cluster);
}

/** requireVerb throws Forbidden unless the principal may use verb somewhere (a read-only token writing). */
export function requireVerb(principal: Principal, verb: AccessVerb): void {
  if (!principal.verbs.has(verb)) {
    throw new AppError('Forbidden', `user "${principal.user}" may not ${verb} (its token is ${[...principal.verbs].join('-')} only)`);
  }
}

/** requireAccess throws Forbidden unless the principal may use verb in cluster (`*` = every cluster). */
export function requireAccess(principal: Principal, verb: AccessVerb, cluster: string): void {
  requireVerb(principal, verb);
  const allowed = cluster === '*' ? principal.clusters === undefined : reaches(principal, cluster);
  if (!allowed) {
    const what = cluster === '*' ? 'every logical cluster at once' : `logical cluster "${cluster}"`;
    throw new AppError('Forbidden', `user "${principal.user}" may not ${verb} in ${what}`);
  }
}

/** visibleClusters lists the clusters a principal's wildcard lists are narrowed to; undefined = no narrowing. */
export function visibleClusters(principal: Principal): readonly string[] | undefined {
  return principal.clusters === undefined ? undefined : [...principal.clusters].sort();
}

/** seesEverything: reads of this principal need no narrowing at all. */
export function seesEverything(principal: Principal): boolean {
  return principal.clusters === undefined && principal.verbs.has('read');
}

function reaches(principal: Principal, cluster: string): boolean {
  return principal.clusters === undefined || principal.clusters.has(cluster);
}
