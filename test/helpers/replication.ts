// Helpers for replication tests: CCR and CRD manifests, and reading the cache API.

import { request } from './kube-http.js';

/** CCRS is the path of ClusterCachedResources under a cluster URL. */
export const CCRS = '/apis/cache.kcp.io/v1alpha1/clustercachedresources';

/** ccr builds a ClusterCachedResource. */
export function ccr(name: string, gvr: { group: string; version: string; resource: string }, matchLabels?: Record<string, string>): Record<string, unknown> {
  return {
    apiVersion: 'cache.kcp.io/v1alpha1',
    kind: 'ClusterCachedResource',
    metadata: { name },
    spec: { ...gvr, ...(matchLabels ? { labelSelector: { matchLabels } } : {}) },
  };
}

/** CachedObjectJson is a CachedObject as the cache API returns it. */
export interface CachedObjectJson {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly labels: Record<string, string>; readonly annotations: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the original object is arbitrary JSON
  readonly spec: { readonly raw: any };
  readonly [field: string]: unknown;
}

/** cachedObjects lists CachedObjects through the cache API (default: every shard and cluster). */
export async function cachedObjects(baseUrl: string, query = '', shard = '*', cluster = '*'): Promise<CachedObjectJson[]> {
  const res = await request('GET', `${baseUrl}/services/cache/shards/${shard}/clusters/${cluster}/apis/cache.kcp.io/v1alpha1/cachedobjects${query}`);
  if (res.status !== 200) throw new Error(`cache list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.items;
}

/** namesOf lists the names of objects, sorted. */
export function namesOf(items: Array<{ metadata: { name: string } }>): string[] {
  return items.map((i) => i.metadata.name).sort();
}
