// Authorization of the kube-compatible APIs: the embedded source at /clusters/{cluster}
// and the cache API at /services/cache/shards/{shard}/clusters/{cluster}. A named cluster must be
// allowed for the verb (403 otherwise, discovery included); a `*` request of a token limited to
// some clusters is narrowed to objects whose `kcp.io/cluster` annotation is one of them, so its
// lists and watches never carry another cluster's objects. Writes to `*` need an all-cluster token.

import type { FastifyRequest } from 'fastify';
import type { AccessVerb } from '../config/config.js';
import type { ObjectFilter } from '../store/store.js';
import { requireAccess, requireVerb } from './authorizer.js';
import { principalOf } from './request-principal.js';
import { CLUSTER_ANNOTATION } from '../cachedobjects/cached-object-annotations.js';

/** authorizeClusterRequest checks a request's principal against a cluster; see ApiServerOptions.authorize. */
export function authorizeClusterRequest(req: FastifyRequest, cluster: string, verb: AccessVerb): ObjectFilter | undefined {
  const principal = principalOf(req);
  if (principal === null) return undefined;
  if (cluster !== '*' || verb === 'write') {
    requireAccess(principal, verb, cluster);
    return undefined;
  }
  requireVerb(principal, verb);
  const allowed = principal.clusters;
  if (allowed === undefined) return undefined;
  return {
    key: `clusters=${[...allowed].sort().join(',')}`,
    matches: (obj) => allowed.has(obj.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''),
  };
}
