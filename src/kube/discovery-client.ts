// REST mapping for one source: which kind a resource has, whether it is namespaced and whether
// it has a status subresource, per logical cluster (kcp clusters can each have their own CRDs).
// Answers are kept only briefly, so a CRD that appears or goes away is seen on the next resolve
// after the TTL without anyone having to invalidate anything.

import { isAppError } from '../errors.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { SourceConnection } from './source-connection.js';
import { clusterPrefix, groupVersionPath } from './source-connection.js';
import { sourceRequest } from './source-request.js';

/** ResourceMapping is what discovery says about one resource. */
export interface ResourceMapping {
  readonly kind: string;
  readonly namespaced: boolean;
  readonly statusSubresource: boolean;
}

/** DiscoveryOptions: ttlMs is how long one group-version document is trusted; now is for clocks in tests. */
export interface DiscoveryOptions {
  readonly ttlMs?: number;
  readonly now?: () => number;
}

/** DEFAULT_DISCOVERY_TTL_MS keeps a discovery answer for two seconds. */
export const DEFAULT_DISCOVERY_TTL_MS = 2000;

type Resources = ReadonlyMap<string, ResourceMapping>;

interface Entry {
  readonly cluster: string;
  readonly expires: number;
  readonly resources: Promise<Resources | undefined>;
}

/** DiscoveryClient resolves resources of one source, caching each group-version document for ttlMs. */
export class DiscoveryClient {
  readonly #source: SourceConnection;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();

  constructor(source: SourceConnection, opts: DiscoveryOptions = {}) {
    this.#source = source;
    this.#ttlMs = opts.ttlMs ?? DEFAULT_DISCOVERY_TTL_MS;
    this.#now = opts.now ?? Date.now;
  }

  /** resolve maps a GVR in one logical cluster, or gives undefined when the source does not serve it. */
  async resolve(cluster: string, gvr: GroupVersionResource): Promise<ResourceMapping | undefined> {
    const resources = await this.#groupVersion(cluster, gvr);
    return resources?.get(gvr.resource);
  }

  /** invalidate forgets what is known about one logical cluster, or about all of them. */
  invalidate(cluster?: string): void {
    for (const [key, entry] of this.#entries) {
      if (cluster === undefined || entry.cluster === cluster) this.#entries.delete(key);
    }
  }

  #groupVersion(cluster: string, gvr: GroupVersionResource): Promise<Resources | undefined> {
    const path = clusterPrefix(this.#source, cluster) + groupVersionPath(gvr);
    const now = this.#now();
    const cached = this.#entries.get(path);
    if (cached && cached.expires > now) return cached.resources;
    const resources = this.#fetch(path);
    this.#entries.set(path, { cluster, expires: now + this.#ttlMs, resources });
    // A failure is not remembered: the next resolve asks again.
    resources.catch(() => {
      if (this.#entries.get(path)?.resources === resources) this.#entries.delete(path);
    });
    return resources;
  }

  async #fetch(path: string): Promise<Resources | undefined> {
    try {
      return resourcesOf(await sourceRequest(this.#source, { method: 'GET', path }));
    } catch (err) {
      if (isAppError(err, 'NotFound')) return undefined;
      throw err;
    }
  }
}

/** resourcesOf reads an APIResourceList: `<r>` entries give the mapping, `<r>/status` marks the subresource. */
function resourcesOf(body: unknown): Resources {
  const out = new Map<string, ResourceMapping>();
  const list = isPlainObject(body) && Array.isArray(body['resources']) ? body['resources'] : [];
  const entries = list.filter(isPlainObject);
  const withStatus = new Set(entries.map((e) => String(e['name'])).filter((n) => n.endsWith('/status')).map((n) => n.slice(0, -'/status'.length)));
  for (const entry of entries) {
    const name = entry['name'];
    if (typeof name !== 'string' || name.includes('/')) continue;
    out.set(name, Object.freeze({
      kind: typeof entry['kind'] === 'string' ? entry['kind'] : '',
      namespaced: entry['namespaced'] === true,
      statusSubresource: withStatus.has(name),
    }));
  }
  return out;
}
