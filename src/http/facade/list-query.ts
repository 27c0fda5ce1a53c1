// Reading the list query parameters shared by /v1/cachedobjects and /v1/schemas/{schema}/objects.
// The parameters were validated against the OpenAPI document already (limit is an integer ≥ 0).

import type { CachedObjectFilter, PageRequest } from '../../read/read-model.js';
import type { MinResourceVersionQuery } from './min-resource-version.js';

/** ListQuery is the validated querystring of a list route: the read model's filter and page, plus watch. */
export interface ListQuery extends MinResourceVersionQuery, CachedObjectFilter, PageRequest {
  readonly watch?: string;
  readonly resourceVersion?: string;
}

const FILTER_FIELDS = ['shard', 'cluster', 'schema', 'group', 'version', 'resource', 'name', 'labelSelector'] as const;

/**
 * parseListQuery turns the query into a read-model filter and page. Empty values count as not
 * given, except `namespace=`, which asks for cluster-scoped originals only.
 */
export function parseListQuery(query: ListQuery): { filter: CachedObjectFilter; page: PageRequest } {
  const filter: { -readonly [K in keyof CachedObjectFilter]: CachedObjectFilter[K] } = {};
  for (const field of FILTER_FIELDS) {
    const value = query[field];
    if (value !== undefined && value !== '') filter[field] = value;
  }
  if (query.namespace !== undefined) filter.namespace = query.namespace;
  const page: { -readonly [K in keyof PageRequest]: PageRequest[K] } = {};
  if (query.limit !== undefined && query.limit > 0) page.limit = query.limit;
  if (query.continue !== undefined && query.continue !== '') page.continue = query.continue;
  return { filter, page };
}
