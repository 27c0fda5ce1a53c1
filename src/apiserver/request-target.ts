// Turning a resource path under /api/v1 or /apis/{group}/{version} into what it addresses.

import { AppError } from '../errors.js';
import type { ResourceCatalog, ResourceInfo } from './resource-info.js';

/** RequestTarget is what one resource request addresses. cluster undefined = every cluster (`*`). */
export interface RequestTarget {
  readonly cluster: string | undefined;
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
  catalog: ResourceCatalog, cluster: string | undefined, group: string, version: string, rest: string,
): RequestTarget {
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
    info,
    namespace,
    name: name === undefined ? undefined : decodeURIComponent(name),
    subresource: subresource === 'status' ? 'status' : undefined,
  };
}
