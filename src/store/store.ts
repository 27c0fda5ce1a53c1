// The contract of a resource store with Kubernetes semantics. The in-memory implementation is
// memory-store.ts; an etcd-backed store could implement the same interface later, which is why
// every data operation is async even though the memory store answers at once.
//
// Caveat first: objects returned by any method are deeply frozen and shared with the store and
// with every other reader. Never mutate them; copy what you need to change.

import type { FieldSelector, LabelSelector } from '../apimachinery/selector.js';
import type { KubeObject } from '../apimachinery/object-meta.js';

/** ResourceRef names one resource type inside one logical cluster; group '' is core. */
export interface ResourceRef {
  readonly cluster: string;
  readonly group: string;
  readonly resource: string;
}

/** ObjectKey is the storage identity of one object; namespace is '' for cluster-scoped ones. */
export interface ObjectKey extends ResourceRef {
  readonly namespace: string;
  readonly name: string;
}

/**
 * Scope selects the objects of one resource type for list, watch and deleteCollection.
 * cluster undefined = every logical cluster; namespace undefined = every namespace.
 */
export interface Scope {
  readonly cluster?: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace?: string;
  /** where narrows the scope further (e.g. one shard of the cache across clusters); it costs a scan. */
  readonly where?: ObjectFilter;
}

/** ObjectFilter is a named predicate; the key identifies it in continue tokens, so it must say what it matches. */
export interface ObjectFilter {
  readonly key: string;
  readonly matches: (obj: KubeObject) => boolean;
}

/** WriteOptions apply to every mutating call. dryRun runs every check but stores nothing. */
export interface WriteOptions {
  readonly dryRun?: boolean;
}

/** UpdateOptions select status-subresource semantics. */
export interface UpdateOptions extends WriteOptions {
  /** statusSubresource: the resource has a /status subresource, so spec and status are written separately. */
  readonly statusSubresource?: boolean;
  /** subresource 'status' writes only .status; otherwise .status is kept when statusSubresource is set. */
  readonly subresource?: 'status';
}

/** CreateOptions: a created object never keeps a client-sent status when statusSubresource is set. */
export interface CreateOptions extends WriteOptions {
  readonly statusSubresource?: boolean;
  /**
   * generation: the object counts metadata.generation (absent = yes, as custom resources do). Core
   * kinds such as ConfigMap and Namespace have none in Kubernetes. An update keeps counting it
   * only on objects created with one.
   */
  readonly generation?: boolean;
}

/** Preconditions must hold on the stored object for a delete to proceed (else 409 Conflict). */
export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** DeleteOptions control finalizer handling. */
export interface DeleteOptions extends WriteOptions {
  readonly preconditions?: Preconditions;
  /** ignoreFinalizers removes the object at once (used when its whole resource type goes away). */
  readonly ignoreFinalizers?: boolean;
}

/** DeleteResult tells whether the object is gone or only marked with a deletionTimestamp. */
export interface DeleteResult {
  readonly object: KubeObject;
  readonly deleted: boolean;
}

/**
 * ListOptions filter and page a list. index selects by a registered index in O(matches); several
 * values select the union of their buckets (for `key in (a,b)`).
 */
export interface ListOptions {
  readonly labelSelector?: LabelSelector;
  readonly fieldSelector?: FieldSelector;
  readonly index?: { readonly name: string; readonly value: string | readonly string[] };
  readonly limit?: number;
  /** continue is the opaque token of a previous page; the rest of the options must be the same. */
  readonly continue?: string;
}

/** ListResult is one page; resourceVersion is the store's version at the first page's snapshot. */
export interface ListResult {
  readonly items: readonly KubeObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/** WatchEventType is a Kubernetes watch event type. ERROR events are the HTTP layer's concern. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/** WatchEvent is one change. A BOOKMARK's object carries only metadata.resourceVersion (and annotations). */
export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: KubeObject;
}

/** WatchOptions pick the starting point. */
export interface WatchOptions {
  readonly labelSelector?: LabelSelector;
  readonly fieldSelector?: FieldSelector;
  /**
   * resourceVersion: events strictly after it are sent. Unset or '0' means "current state as ADDED
   * events, then changes". Older than the event window → the call rejects with AppError Expired.
   */
  readonly resourceVersion?: string;
  /** sendInitialEvents: with a resourceVersion, also send the current state first, then a BOOKMARK annotated k8s.io/initial-events-end. */
  readonly sendInitialEvents?: boolean;
}

/** WatchListener receives events synchronously, in resourceVersion order. It must not write to the store synchronously. */
export type WatchListener = (event: WatchEvent) => void;

/** Watch is a running watch. */
export interface Watch {
  /** stop ends the watch; no event is delivered after it returns. */
  stop(): void;
  /** bookmark delivers a BOOKMARK event with the store's current resourceVersion at once. */
  bookmark(): void;
}

/** IndexCount is how many objects of one cluster carry one index value. */
export interface IndexCount {
  readonly cluster: string;
  readonly value: string;
  readonly count: number;
}

/**
 * IndexFunc gives the indexed values of an object; [] means not indexed. It must be pure.
 * keepsOwnName says its values usually include the object's own name (for cluster-scoped
 * objects): the index then keeps those entries in no bucket (see own-name-entries.ts).
 */
export type IndexFunc = ((obj: KubeObject) => readonly string[]) & { readonly keepsOwnName?: boolean };

/**
 * IndexReader is the synchronous index lookup of an in-process store, for the hottest point reads:
 * no promise, no sorting, no paging state.
 */
export interface IndexReader {
  /** peek is the synchronous lookup of one object in what this process holds (its watch cache): the object or undefined. */
  peek(key: ObjectKey): KubeObject | undefined;
  /** indexed returns the objects under one value of a registered index, in one cluster or in all, unordered, as a fresh array the caller may change. */
  indexed(scope: Pick<Scope, 'cluster' | 'group' | 'resource'>, index: string, value: string): KubeObject[];
  /** indexedCount is the number of objects indexed lists, without listing them. */
  indexedCount(scope: Pick<Scope, 'cluster' | 'group' | 'resource'>, index: string, value: string): number;
}

/**
 * ResourceStore is a store of Kubernetes objects with one resourceVersion that never decreases:
 * each write takes a greater one, except that the writes a durable backend commits in one
 * transaction share it.
 */
export interface ResourceStore {
  /** create stores a new object, filling uid, resourceVersion, creationTimestamp, generation (and a name from generateName). */
  create(ref: ResourceRef, obj: KubeObject, opts?: CreateOptions): Promise<KubeObject>;
  /** get returns the stored object or rejects with AppError NotFound. */
  get(key: ObjectKey): Promise<KubeObject>;
  /** lookup returns the stored object or undefined: for callers to whom absence is normal. */
  lookup(key: ObjectKey): Promise<KubeObject | undefined>;
  /** list returns the matching objects sorted by namespace then name, paged by limit/continue. */
  list(scope: Scope, opts?: ListOptions): Promise<ListResult>;
  /** update replaces an object; a non-empty metadata.resourceVersion that differs → AppError Conflict. */
  update(key: ObjectKey, obj: KubeObject, opts?: UpdateOptions): Promise<KubeObject>;
  /** delete removes an object, or only sets deletionTimestamp while finalizers remain. */
  delete(key: ObjectKey, opts?: DeleteOptions): Promise<DeleteResult>;
  /** deleteCollection deletes every matching object (as delete does) and returns what was deleted or marked. */
  deleteCollection(scope: Scope, list?: ListOptions, opts?: DeleteOptions): Promise<readonly KubeObject[]>;
  /** watch streams changes to listener; rejects with AppError Expired when resourceVersion is too old. */
  watch(scope: Scope, opts: WatchOptions, listener: WatchListener): Promise<Watch>;
  /** resourceVersion is the store's current resourceVersion. */
  resourceVersion(): Promise<string>;
  /** addIndex registers an index on one resource type (every cluster); existing objects are indexed at once. */
  addIndex(group: string, resource: string, name: string, fn: IndexFunc): void;
  /** count is the number of stored objects in a scope, without listing them. */
  count(scope: Scope): Promise<number>;
  /** indexCounts lists, per cluster, every value of a registered index with its number of objects. */
  indexCounts(group: string, resource: string, indexName: string): Promise<IndexCount[]>;
}
