// Reading the list query parameters shared by /v1/cachedobjects and /v1/schemas/{schema}/objects.
// The parameters were validated against the OpenAPI document already (limit is an integer ≥ 0).

import { MAX_PAGE_LIMIT } from '../../read/read-model.js';
import type { CachedObjectFilter, PageRequest } from '../../read/read-model.js';
import type { ReadWaitQuery } from './read-wait.js';

/** ListQuery is the validated querystring of a list route: the read model's filter and page, plus watch. */
export interface ListQuery extends ReadWaitQuery, CachedObjectFilter, PageRequest {
  readonly watch?: string;
  readonly resourceVersion?: string;
}

const FILTER_FIELDS = ['shard', 'cluster', 'schema', 'group', 'version', 'resource', 'name', 'labelSelector'] as const;

/**
 * parseListQuery turns the query into a read-model filter and page. Empty values count as not
 * given, except `namespace=`, which asks for cluster-scoped originals only. A limit above
 * MAX_PAGE_LIMIT is lowered to it (the page then ends with a continue token).
 */
export function parseListQuery(query: ListQuery): { filter: CachedObjectFilter; page: PageRequest } {
  const filter: { -readonly [K in keyof CachedObjectFilter]: CachedObjectFilter[K] } = {};
  for (const field of FILTER_FIELDS) {
    const value = query[field];
    if (value !== undefined && value !== '') filter[field] = value;
  }
  if (query.namespace !== undefined) filter.namespace = query.namespace;
  const page: { -readonly [K in keyof PageRequest]: PageRequest[K] } = {};
  if (query.limit !== undefined && query.limit > 0) page.limit = Math.min(query.limit, MAX_PAGE_LIMIT);
  if (query.continue !== undefined && query.continue !== '') page.continue = query.continue;
  return { filter, page };
}
