// The read model: the one way REST and GraphQL read the cache, so the two cannot drift. Every
// lookup goes through an index of the cache store; none scans the whole cache. Objects returned
// are the cache's frozen objects: never mutate them.

import type { KubeObject } from '../apimachinery/object-meta.js';

/** ObjectRef looks up an original by gvr + name; group may be '' or `core` for the core group. */
export interface ObjectRef {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly name: string;
  /** namespace: '' or undefined for cluster-scoped originals. */
  readonly namespace?: string;
  /** cluster may be left out when exactly one logical cluster holds a match. */
  readonly cluster?: string;
  readonly shard?: string;
}

/** FoundObject is an original, its CachedObject, and where it came from. */
export interface FoundObject {
  /** object is the original (the CachedObject's spec.raw), or the overlay's newer recorded write. */
  readonly object: KubeObject;
  /**
   * cachedObject is the cache's CachedObject; for an overlay answer (source 'overlay'), one
   * synthesized around `object` as the cache will hold it once replicated (so it is present even
   * for an object created through cachegate and not replicated yet). Never undefined.
   */
  readonly cachedObject: KubeObject;
  readonly shard: string;
  readonly cluster: string;
  /** source says whether the answer came from the cache or from the overlay of recent writes. */
  readonly source: 'cache' | 'overlay';
}

/** CachedObjectFilter narrows a list; every field is optional and all given fields must hold. */
export interface CachedObjectFilter {
  readonly shard?: string;
  readonly cluster?: string;
  /** schema is `<version>.<resource>.<group>` (group `core` for the core group). */
  readonly schema?: string;
  readonly group?: string;
  readonly version?: string;
  readonly resource?: string;
  /** namespace of the original ('' = cluster-scoped originals only). */
  readonly namespace?: string;
  /** name of the original. */
  readonly name?: string;
  /** labelSelector in the full Kubernetes grammar, applied to the original's labels. */
  readonly labelSelector?: string;
  /**
   * clusters keeps only these logical clusters (with cluster unset): how a token limited to some
   * clusters lists and watches `*`. Not a query parameter; set by the auth layer.
   */
  readonly clusters?: readonly string[];
}

/**
 * MAX_PAGE_LIMIT bounds one page. A larger `limit` is lowered to it, not refused: as in
 * Kubernetes, a server may return fewer items than asked, with a continue token for the rest.
 */
export const MAX_PAGE_LIMIT = 10_000;

/** PageRequest asks for one page; continue is the opaque token of the previous page. */
export interface PageRequest {
  readonly limit?: number;
  readonly continue?: string;
}

/** Page is one page of a list that stays consistent while the cache changes. */
export interface Page<T> {
  readonly items: readonly T[];
  /** resourceVersion is the cache's version at the list's snapshot. */
  readonly resourceVersion: string;
  readonly continue?: string;
  /** remainingItemCount is how many items follow this page (absent on the last page). */
  readonly remainingItemCount?: number;
  /** totalCount is the number of items in the whole list. */
  readonly totalCount: number;
}

/** SchemaSummary is one replicated schema with its per-cluster counts. */
export interface SchemaSummary {
  readonly name: string;
  /** group as the schema writes it: `core` for the core group. */
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly count: number;
  readonly clusters: ReadonlyArray<{ readonly shard: string; readonly cluster: string; readonly count: number }>;
}

/** ReadEvent is one change of a CachedObject, as SSE and subscriptions deliver it. */
export interface ReadEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** object is the CachedObject. */
  readonly object: KubeObject;
  /** resourceVersion is the cache's version of this event, usable to resume after it. */
  readonly resourceVersion: string;
}

/** ReadWatch is a running watch. */
export interface ReadWatch {
  stop(): void;
}

/**
 * ReadModel answers every facade read. With an overlay (config `cache.enabled`), getObject(s),
 * listObjects and listCachedObjects merge the cache with recent writes (overlay-reads.ts: paging
 * semantics, what is synthesized); getCachedObject and watches read the cache only.
 * Failures are AppErrors: NotFound, Conflict (an ObjectRef without cluster matching several
 * clusters: details.causes list them), BadRequest (bad selector or filter), Expired (a continue
 * token or resourceVersion too old).
 */
export interface ReadModel {
  /** findObject is the point read, synchronous because the cache is in process memory; throws AppError. */
  findObject(ref: ObjectRef): FoundObject;
  getObject(ref: ObjectRef): Promise<FoundObject>;
  /** getObjects answers many lookups at once (GraphQL loaders); each entry is a result or its error. */
  getObjects(refs: readonly ObjectRef[]): Promise<Array<FoundObject | Error>>;
  /** getCachedObject finds a CachedObject by its own name; cluster/shard may be left out when unique. */
  getCachedObject(name: string, where: { readonly cluster?: string; readonly shard?: string }): Promise<KubeObject>;
  listCachedObjects(filter: CachedObjectFilter, page: PageRequest): Promise<Page<KubeObject>>;
  /** listObjects is listCachedObjects unwrapped to the originals. */
  listObjects(filter: CachedObjectFilter, page: PageRequest): Promise<Page<KubeObject>>;
  schemas(): Promise<SchemaSummary[]>;
  /**
   * watchCachedObjects delivers changes matching filter after resourceVersion (unset: from now,
   * with no initial events); too old → rejects with Expired. The listener is called synchronously.
   */
  watchCachedObjects(filter: CachedObjectFilter, from: { readonly resourceVersion?: string }, listener: (event: ReadEvent) => void): Promise<ReadWatch>;
  /** clusterCachedResources lists the CCRs of every source, with their status. */
  clusterCachedResources(): Promise<KubeObject[]>;
  /**
   * waitForRead resolves once a read may go ahead, or is undefined when it may at once (the
   * hottest reads then stay synchronous). It waits until the cache has replicated, for each token
   * given (a write's `<shard>/<cluster>/<group>/<resource>/<rv>`: that resource;
   * `<shard>/<cluster>/<rv>`: every resource of the cluster), at least that source resourceVersion
   * (read-waiter.ts), and, for a consistent read on replicas sharing a backend, until this
   * replica's cache holds everything committed before the call. Malformed → BadRequest; a bound
   * passes first → Timeout (retry after 1 s).
   */
  waitForRead(want: ReadWait): Promise<void> | undefined;
  /** readsAtOnce is true when waitForRead(want) would not wait; it starts nothing. */
  readsAtOnce(want: ReadWait): boolean;
}

/** ReadWait is what a read waits for before it reads. */
export interface ReadWait {
  /** minResourceVersions are write tokens to be replicated first (none: no such wait). */
  readonly minResourceVersions?: readonly string[];
  /** consistent false reads what this replica holds now; otherwise replicas read consistently. */
  readonly consistent?: boolean;
}

/** Consistency is how a replica sharing its backend makes a read consistent. */
export interface Consistency {
  /** wait resolves once the cache holds everything committed before the call; Timeout past its bound. */
  wait(): Promise<void>;
}
