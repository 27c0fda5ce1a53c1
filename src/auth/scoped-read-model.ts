// The read model as one principal sees it: a token limited to some logical clusters gets
// Forbidden for any other cluster it names, and never sees another cluster's objects. Lookups that
// leave the cluster out ("wherever it is unique") are answered among its clusters only; lists,
// watches, schema counts and ClusterCachedResources are narrowed to them (the filter's `clusters`,
// which the filter planner answers from an index). REST and GraphQL both read through this.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { AppError, isAppError } from '../errors.js';
import { ORIGIN_FIELDS } from '../cachedobjects/cached-object-origin.js';
import { findEach } from '../read/find-each.js';
import { parseMinResourceVersion } from '../read/min-resource-version.js';
import type {
  CachedObjectFilter, FoundObject, ObjectRef, Page, PageRequest, ReadEvent, ReadModel, ReadWait, ReadWatch, SchemaSummary,
} from '../read/read-model.js';
import { requireAccess, requireVerb, seesEverything, visibleClusters } from './authorizer.js';
import type { Principal } from './principal.js';
import { CLUSTER_ANNOTATION } from '../cachedobjects/cached-object-annotations.js';

/** scopeReadModel gives the read model narrowed to a principal (the model itself when nothing is narrowed). */
export function scopeReadModel(read: ReadModel, principal: Principal | null): ReadModel {
  if (principal === null || seesEverything(principal)) return read;
  return new ScopedReadModel(read, principal);
}

class ScopedReadModel implements ReadModel {
  readonly #read: ReadModel;
  readonly #principal: Principal;
  readonly #clusters: readonly string[];

  constructor(read: ReadModel, principal: Principal) {
    this.#read = read;
    this.#principal = principal;
    this.#clusters = visibleClusters(principal) ?? [];
  }

  findObject(ref: ObjectRef): FoundObject {
    if (ref.cluster !== undefined) {
      this.#require(ref.cluster);
      return this.#read.findObject(ref);
    }
    this.#require('');
    const found = this.#inEachCluster((cluster) => this.#read.findObject({ ...ref, cluster }));
    return onlyOne(found, ref.name, (f) => f.cluster);
  }

  async getObject(ref: ObjectRef): Promise<FoundObject> {
    return this.findObject(ref);
  }

  async getObjects(refs: readonly ObjectRef[]): Promise<Array<FoundObject | Error>> {
    return findEach(this, refs);
  }

  async getCachedObject(name: string, where: { readonly cluster?: string; readonly shard?: string }): Promise<KubeObject> {
    if (where.cluster !== undefined) {
      this.#require(where.cluster);
      return this.#read.getCachedObject(name, where);
    }
    this.#require('');
    const settled = await Promise.all(this.#clusters.map((cluster) => this.#read.getCachedObject(name, { ...where, cluster }).catch(notFoundAsMiss)));
    return onlyOne(hitsOrNotFound(settled), name, (o) => ORIGIN_FIELDS.cluster(o));
  }

  listCachedObjects(filter: CachedObjectFilter, page: PageRequest): Promise<Page<KubeObject>> {
    return this.#read.listCachedObjects(this.#narrow(filter), page);
  }

  listObjects(filter: CachedObjectFilter, page: PageRequest): Promise<Page<KubeObject>> {
    return this.#read.listObjects(this.#narrow(filter), page);
  }

  async schemas(): Promise<SchemaSummary[]> {
    this.#require('');
    const visible = new Set(this.#clusters);
    return (await this.#read.schemas()).flatMap((schema) => {
      const clusters = schema.clusters.filter((c) => visible.has(c.cluster));
      const count = clusters.reduce((sum, c) => sum + c.count, 0);
      return clusters.length === 0 ? [] : [{ ...schema, clusters, count }];
    });
  }

  watchCachedObjects(filter: CachedObjectFilter, from: { readonly resourceVersion?: string }, listener: (event: ReadEvent) => void): Promise<ReadWatch> {
    return this.#read.watchCachedObjects(this.#narrow(filter), from, listener);
  }

  async clusterCachedResources(): Promise<KubeObject[]> {
    this.#require('');
    const visible = new Set(this.#clusters);
    return (await this.#read.clusterCachedResources()).filter((ccr) => visible.has(ccr.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''));
  }

  waitForRead(want: ReadWait): Promise<void> | undefined {
    // Waiting on another cluster would tell how far it has replicated. A malformed value is a
    // BadRequest, before any cluster is checked.
    for (const value of want.minResourceVersions ?? []) this.#require(parseMinResourceVersion(value).cluster);
    return this.#read.waitForRead(want);
  }

  readsAtOnce(want: ReadWait): boolean {
    return this.#read.readsAtOnce(want);
  }

  /** narrow keeps a named cluster (when allowed) or limits the filter to the visible clusters. */
  #narrow(filter: CachedObjectFilter): CachedObjectFilter {
    if (filter.cluster !== undefined) {
      this.#require(filter.cluster);
      return filter;
    }
    this.#require('');
    return { ...filter, clusters: this.#clusters };
  }

  /** require checks read access to a cluster ('' = only the verb: the caller narrows to visible clusters). */
  #require(cluster: string): void {
    if (cluster === '') requireVerb(this.#principal, 'read');
    else requireAccess(this.#principal, 'read', cluster);
  }

  /** inEachCluster runs a lookup in every visible cluster; a NotFound is kept as a miss, other errors throw. */
  #inEachCluster<T>(lookup: (cluster: string) => T): T[] | AppError {
    return hitsOrNotFound(this.#clusters.map((cluster) => {
      try {
        return lookup(cluster);
      } catch (err) {
        return notFoundAsMiss(err);
      }
    }));
  }
}

/** notFoundAsMiss keeps a per-cluster NotFound as that cluster's miss and rethrows any other error. */
function notFoundAsMiss(err: unknown): AppError {
  if (isAppError(err, 'NotFound')) return err;
  throw err;
}

/** hitsOrNotFound keeps the hits of per-cluster lookups, or the NotFound when every lookup missed. */
function hitsOrNotFound<T>(results: ReadonlyArray<T | AppError>): T[] | AppError {
  const hits = results.filter((r): r is T => !(r instanceof AppError));
  if (hits.length > 0) return hits;
  return results.find((r): r is AppError => r instanceof AppError) ?? new AppError('NotFound', 'not found');
}

/** onlyOne is the single hit, the NotFound of no hit, or a Conflict naming the clusters of several. */
function onlyOne<T>(found: readonly T[] | AppError, name: string, clusterOf: (hit: T) => string): T {
  if (found instanceof AppError) throw found;
  const [first, second] = found;
  if (first === undefined) throw new AppError('NotFound', `"${name}" not found`, { name });
  if (second === undefined) return first;
  const clusters = found.map(clusterOf);
  throw new AppError('Conflict', `"${name}" exists in ${clusters.length} logical clusters (${clusters.join(', ')}); pass cluster to choose one`, {
    name, causes: clusters.map((cluster) => ({ reason: 'FieldValueDuplicate', field: 'cluster', message: `cluster=${cluster}` })),
  });
}
