// How the kube-compatible API asks whether a request may use a logical cluster. The app gives the
// check (from its auth configuration); the API only calls it.

import type { FastifyRequest } from 'fastify';
import type { ObjectFilter } from '../store/store.js';

/** AccessVerb is how the check groups verbs: reads (get, list, watch) and writes (every other). */
export type AccessVerb = 'read' | 'write';

/**
 * ClusterAuthorizer checks a request against its logical cluster (the raw `:cluster`, `*` = every
 * cluster); it throws (Forbidden) to refuse, and may return a filter that narrows a wildcard
 * request to what the caller may see.
 */
export type ClusterAuthorizer = (req: FastifyRequest, cluster: string, verb: AccessVerb) => ObjectFilter | undefined;
