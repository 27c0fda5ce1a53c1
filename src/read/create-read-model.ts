// The read model over the cache store: every lookup is an index query planned by filter-plan.ts.
// With an overlay (config `cache.enabled`), every object read and list goes through it: a write
// made through cachegate that the cache has not replicated yet is answered from the overlay
// (overlay-reads.ts holds the merge rules).

import { AppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { groupFromName, schemaOf } from '../apimachinery/gvr.js';
import { cacheLocation } from '../cachedobjects/cache-location.js';
import { BY_SCHEMA_AND_NAME, BY_SOURCE_CLUSTER_AND_SCHEMA, isCopyOf, schemaAndNameKey } from '../cachedobjects/cached-object-indexes.js';
import { ORIGIN_FIELDS } from '../cachedobjects/cached-object-origin.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../cachedobjects/cached-object-resource.js';
import { unwrapCachedObject } from '../cachedobjects/wrap-cached-object.js';
import type { IndexReader, ResourceStore } from '../store/store.js';
import { ambiguous, sortedByPlace } from './ambiguous-match.js';
import { CacheCopies } from './cache-copies.js';
import { cacheLocations, cachePlaces } from './cache-places.js';
import { overlayCachedObjects, overlayFound, overlayOnlyFound, mergePage, overlayOnlyItems } from './overlay-reads.js';
import type { OverlayReads } from './overlay-reads.js';
import { findEach } from './find-each.js';
import { planFilter } from './filter-plan.js';
import { ReadWaiter } from './read-waiter.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';
import type { PageCursor } from './page-cursor.js';
import type {
  CachedObjectFilter, Consistency, FoundObject, ObjectRef, Page, PageRequest, ReadEvent, ReadModel, ReadWait, ReadWatch, SchemaSummary,
} from './read-model.js';
import { summarizeSchemas } from './schema-summaries.js';

/** ReadModelDeps are where the read model reads from. */
export interface ReadModelDeps {
  /** cache is read through its async API, and synchronously (IndexReader) for point reads. */
  readonly cache: ResourceStore & IndexReader;
  /** clusterCachedResources lists the CCRs of every source (from their informers). */
  readonly clusterCachedResources: () => KubeObject[];
  /** overlay merges recent writes into reads; undefined reads the cache only. */
  readonly overlay?: OverlayReads;
  /** waiter serves minResourceVersion; undefined: no replication is ever confirmed (every such read times out after 5 s). */
  readonly waiter?: ReadWaiter;
  /** consistency makes reads consistent across replicas; undefined: this process's cache is the only one. */
  readonly consistency?: Consistency;
}

/** createReadModel builds the read model over the cache. */
export function createReadModel(deps: ReadModelDeps): ReadModel {
  return new CacheReadModel(deps);
}

class CacheReadModel implements ReadModel {
  readonly #deps: ReadModelDeps;
  readonly #copies: CacheCopies;
  readonly #waiter: ReadWaiter;

  constructor(deps: ReadModelDeps) {
    this.#deps = deps;
    this.#copies = new CacheCopies(deps.cache);
    this.#waiter = deps.waiter ?? new ReadWaiter({ progress: { hasReplicated: () => false }, timeoutMs: 5000 });
  }

  waitForRead(want: ReadWait): Promise<void> | undefined {
    if (this.readsAtOnce(want)) return undefined;
    const tokens = want.minResourceVersions ?? [];
    const consistency = want.consistent === false ? undefined : this.#deps.consistency;
    if (consistency === undefined) return this.#waiter.waitFor(tokens);
    if (tokens.length === 0) return consistency.wait();
    return Promise.all([this.#waiter.waitFor(tokens), consistency.wait()]).then(() => undefined);
  }

  readsAtOnce(want: ReadWait): boolean {
    return (want.minResourceVersions ?? []).length === 0 && (want.consistent === false || this.#deps.consistency === undefined);
  }

  findObject(ref: ObjectRef): FoundObject {
    // ref.group is a group name (`core` for the core group), which schemaOf writes as it is.
    const schema = schemaOf(ref);
    const matches = this.#byName(schema, ref);
    const overlay = activeOverlay(this.#deps.overlay);
    // The usual answer (one copy, no pending write through cachegate) allocates only its result.
    const [only] = matches;
    if (overlay === undefined && only !== undefined && matches.length === 1) return fromCache(only);
    const found = overlay === undefined ? matches.map(fromCache) : [...overlayFound(overlay, matches), ...overlayOnlyFound(overlay, ref, matches)];
    const [first, second] = found;
    if (first !== undefined && second === undefined) return first;
    const group = groupFromName(ref.group);
    const what = `${ref.resource}${group ? `.${group}` : ''} "${ref.name}"`;
    if (first === undefined) throw new AppError('NotFound', `${what} not found`, { name: ref.name, group, kind: ref.resource });
    throw ambiguous(what, ref, sortedByPlace(found).map((f) => f.cachedObject));
  }

  async getObject(ref: ObjectRef): Promise<FoundObject> {
    return this.findObject(ref);
  }

  async getObjects(refs: readonly ObjectRef[]): Promise<Array<FoundObject | Error>> {
    return findEach(this, refs);
  }

  async getCachedObject(name: string, where: { readonly cluster?: string; readonly shard?: string }): Promise<KubeObject> {
    let found: KubeObject[] = [];
    for (const location of await cacheLocations(this.#deps.cache, where)) {
      const obj = await this.#deps.cache.lookup({ cluster: location, group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE, namespace: '', name });
      if (obj !== undefined) found.push(obj);
    }
    const overlay = activeOverlay(this.#deps.overlay);
    if (overlay !== undefined) found = overlayCachedObjects(overlay, found, name, where);
    const [first, second] = found;
    const what = `cachedobjects.cache.kcp.io "${name}"`;
    if (first === undefined) throw new AppError('NotFound', `${what} not found`, { name, group: CACHED_OBJECTS_GROUP, kind: CACHED_OBJECTS_RESOURCE });
    if (second !== undefined) throw ambiguous(what, { name, group: CACHED_OBJECTS_GROUP }, found);
    return first;
  }

  async listCachedObjects(filter: CachedObjectFilter, page: PageRequest): Promise<Page<KubeObject>> {
    const cursor = page.continue ? decodeCursor(page.continue) : undefined;
    const located = await this.#located(filter, cursor);
    const plan = planFilter(located);
    const matches = located === filter ? plan.matches : planFilter(filter).matches;
    const result = await this.#deps.cache.list(plan.scope, {
      index: plan.index, labelSelector: plan.labelSelector, limit: page.limit, continue: cursor?.storeToken,
    });
    const overlay = activeOverlay(this.#deps.overlay);
    let items = result.items;
    let total = cursor?.total ?? result.items.length + (result.remainingItemCount ?? 0);
    if (overlay !== undefined) {
      items = mergePage(overlay, result.items, matches);
      if (!result.continue) items = [...items, ...(await overlayOnlyItems(overlay, this.#copies, filter, matches, result.resourceVersion))];
      // An unpaged list counts exactly; a paged one counts the cache's snapshot (see overlay-reads.ts).
      if (page.limit === undefined && cursor === undefined) total = items.length;
    }
    const shard = located.shard !== filter.shard && located.shard !== undefined ? { shard: located.shard } : {};
    return {
      items,
      resourceVersion: result.resourceVersion,
      totalCount: total,
      ...(result.continue ? { continue: encodeCursor({ storeToken: result.continue, total, ...shard }) } : {}),
      ...(result.remainingItemCount !== undefined ? { remainingItemCount: result.remainingItemCount } : {}),
    };
  }

  /**
   * located narrows a filter naming a cluster but no shard to that cluster's shard when exactly
   * one shard holds it: the list then reads one location's index bucket, already sorted, with
   * nothing left to check per object. Later pages keep the first page's choice.
   */
  async #located(filter: CachedObjectFilter, cursor: PageCursor | undefined): Promise<CachedObjectFilter> {
    if (filter.shard !== undefined || filter.cluster === undefined) return filter;
    if (cursor !== undefined) return cursor.shard === undefined ? filter : { ...filter, shard: cursor.shard };
    const shards = new Set((await cachePlaces(this.#deps.cache, { cluster: filter.cluster })).map((place) => place.shard));
    const [only] = shards;
    return shards.size === 1 && only !== undefined ? { ...filter, shard: only } : filter;
  }

  async listObjects(filter: CachedObjectFilter, page: PageRequest): Promise<Page<KubeObject>> {
    const cached = await this.listCachedObjects(filter, page);
    return { ...cached, items: cached.items.map(unwrapCachedObject) };
  }

  async schemas(): Promise<SchemaSummary[]> {
    return summarizeSchemas(await this.#deps.cache.indexCounts(CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE, BY_SOURCE_CLUSTER_AND_SCHEMA));
  }

  async watchCachedObjects(filter: CachedObjectFilter, from: { readonly resourceVersion?: string }, listener: (event: ReadEvent) => void): Promise<ReadWatch> {
    const plan = planFilter(filter);
    const resourceVersion = from.resourceVersion || (await this.#deps.cache.resourceVersion());
    return this.#deps.cache.watch(
      { ...plan.scope, where: { key: plan.key, matches: plan.matches } },
      { resourceVersion },
      (event) => {
        if (event.type === 'BOOKMARK') return;
        listener({ type: event.type, object: event.object, resourceVersion: event.object.metadata.resourceVersion ?? '' });
      },
    );
  }

  async clusterCachedResources(): Promise<KubeObject[]> {
    return this.#deps.clusterCachedResources();
  }

  /**
   * byName is the point lookup behind findObject: one bucket of the by-schema-and-name index (which
   * without a namespace holds the name in every namespace), read synchronously and narrowed by a
   * plain loop. It skips the general filter planner and the paging list, since this is the hottest read.
   */
  #byName(schema: string, ref: ObjectRef): KubeObject[] {
    const { namespace, cluster, shard } = ref;
    const scope = shard !== undefined && cluster !== undefined
      ? { cluster: cacheLocation(shard, cluster), group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE }
      : EVERY_LOCATION;
    const candidates = this.#deps.cache.indexed(scope, BY_SCHEMA_AND_NAME, schemaAndNameKey(schema, namespace ?? '', ref.name));
    // `<schema>.<name>` is both a cluster-scoped object's key and every namespace's alias, and a key
    // may be shared by another schema and name, so the origin and the place are checked here.
    // indexed returns a fresh array, so it is narrowed in place.
    let kept = 0;
    for (const copy of candidates) {
      if (!isCopyOf(copy, schema, ref.name, namespace)) continue;
      if (cluster !== undefined && ORIGIN_FIELDS.cluster(copy) !== cluster) continue;
      if (shard !== undefined && ORIGIN_FIELDS.shard(copy) !== shard) continue;
      candidates[kept++] = copy;
    }
    // Setting an array's length is a runtime call even when it does not change.
    if (kept < candidates.length) candidates.length = kept;
    return candidates;
  }

}

/** EVERY_LOCATION is the index scope of a point read that does not name both shard and cluster. */
const EVERY_LOCATION = { cluster: undefined, group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE } as const;

/** fromCache is a lookup answered by the cache's copy alone. */
function fromCache(copy: KubeObject): FoundObject {
  return { object: unwrapCachedObject(copy), cachedObject: copy, shard: ORIGIN_FIELDS.shard(copy), cluster: ORIGIN_FIELDS.cluster(copy), source: 'cache' };
}

/**
 * activeOverlay is the overlay when it holds any entry. Once the cache has caught up the overlay
 * is empty, and reads then cost what they cost without one (the benchmark's 5% goal).
 */
function activeOverlay(reads: OverlayReads | undefined): OverlayReads | undefined {
  if (reads === undefined) return undefined;
  const size = reads.overlay.size();
  return size.live === 0 && size.tombstones === 0 ? undefined : reads;
}
