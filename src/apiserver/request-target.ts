// Turning a resource path under /api/v1 or /apis/{group}/{version} into what it addresses.

import { AppError } from '../errors.js';
import type { ObjectFilter } from '../store/store.js';
import type { ResourceCatalog, ResourceInfo } from './resource-info.js';

/**
 * Location is where a request points: one logical cluster, or every cluster (undefined), possibly
 * narrowed by a filter (the cache API's `shards/X/clusters/*` is every cluster of shard X).
 */
export interface Location {
  readonly cluster: string | undefined;
  readonly where?: ObjectFilter;
}

/** RequestTarget is what one resource request addresses. cluster undefined = every cluster (`*`). */
export interface RequestTarget {
  readonly cluster: string | undefined;
  readonly where: ObjectFilter | undefined;
  readonly info: ResourceInfo;
  /** namespace: undefined for cluster-scoped resources and for all-namespace lists. */
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: 'status' | undefined;
}

/** notFoundPath is the error Kubernetes gives for a path no resource serves. */
export function notFoundPath(): AppError {
  return new AppError('NotFound', 'the server could not find the requested resource');
}

/**
 * resolveTarget reads the path segments after the group-version: `res[/name[/sub]]` or
 * `namespaces/ns/res[/name[/sub]]`; `namespaces/ns/status` is the namespace's own subresource.
 */
export function resolveTarget(
  catalog: ResourceCatalog, location: Location, group: string, version: string, rest: string,
): RequestTarget {
  const cluster = location.cluster;
  const parts = rest.split('/');
  if (parts.some((p) => p === '')) throw notFoundPath();
  const namespacedForm = parts[0] === 'namespaces' && parts.length >= 3 && !(parts.length === 3 && parts[2] === 'status');
  const [namespace, resource, name, subresource, extra] = namespacedForm
    ? [parts[1], parts[2], parts[3], parts[4], parts[5]]
    : [undefined, parts[0], parts[1], parts[2], parts[3]];
  if (extra !== undefined || resource === undefined) throw notFoundPath();
  const info = catalog.find(cluster, group, version, resource);
  if (!info) throw notFoundPath();
  if (namespacedForm && !info.namespaced) throw notFoundPath();
  if (subresource !== undefined && !(subresource === 'status' && info.statusSubresource)) throw notFoundPath();
  return {
    cluster,
    where: location.where,
    info,
    namespace,
    name: name === undefined ? undefined : decodeName(name),
    subresource: subresource === 'status' ? 'status' : undefined,
  };
}

// A name segment with a broken escape (`%ZZ`, `%C3%28`) is the client's mistake, not a server error.
function decodeName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AppError('BadRequest', `the name in the path is not valid percent-encoded UTF-8: ${JSON.stringify(segment)}`);
  }
}
