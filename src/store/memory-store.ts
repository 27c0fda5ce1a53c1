// The ResourceStore over a watch cache: reads answer from the cache's indexes; writes are checked
// against it, then committed. Without a committer the store is the system of record and commits
// into the cache synchronously inside the call, so a write, its resourceVersion, its event-window
// entry and its delivery to watchers form one atomic step. With a committer (a durable backend), a
// checked write is committed there first and reaches the cache through the backend's change feed,
// with the backend's revision as resourceVersion; reads never wait on the backend.

import { AppError } from '../errors.js';
import { UidSource } from '../apimachinery/uid-source.js';
import { deepFreezeMeasured } from '../apimachinery/object-bytes.js';
import type { KubeObject, ObjectMeta } from '../apimachinery/object-meta.js';
import { byNamespaceAndName, collectObjects, collectUnsorted, indexedCount, indexedObjects, listFingerprint } from './list-query.js';
import { planLabelIndex } from './label-index-plan.js';
import type { ClusterTable } from './object-table.js';
import type { Committer, PlannedWrite } from './committer.js';
import { defaultRandomSuffix, pickName, SecondStamps } from './object-naming.js';
import { checkPreconditions } from './preconditions.js';
import { checkedWrite } from './checked-write.js';
import { settle, skipGone } from './delete-outcomes.js';
import { conflict, notFound } from './store-errors.js';
import type * as S from './store.js';
import { WatchCache } from './watch-cache.js';
import type { WatchCacheOptions } from './watch-cache.js';
import { startWatch } from './watch-start.js';
import * as rules from './write-rules.js';
import { CompactRecords } from '../apimachinery/compact-records.js';

/** DELETE_WAVE is how many deletes of a collection are in flight at once with a backend. */
const DELETE_WAVE = 256;

export { defaultRandomSuffix };

/** MemoryStoreOptions tune a MemoryStore; every field has a default. */
export interface MemoryStoreOptions extends WatchCacheOptions {
  /** randomSuffix gives the 5 characters appended to generateName. */
  readonly randomSuffix?: () => string;
  /** committer makes writes durable elsewhere first; absent, the store is the system of record. */
  readonly committer?: Committer;
  /** cache is the watch cache to serve from (a durable store's feed fills it); default: a new one. */
  readonly cache?: WatchCache;
}

/** MemoryStore is a ResourceStore held in process memory. */
export class MemoryStore implements S.ResourceStore, S.IndexReader {
  private readonly cache: WatchCache;
  private readonly table: WatchCache['table'];
  private readonly randomSuffix: () => string;
  private readonly committer: Committer | undefined;
  private readonly stamps: SecondStamps;
  /** records lays stored metadata out compactly (see compact-records.ts): it lives as long as its object. */
  private readonly records = new CompactRecords();
  private readonly uids = new UidSource();

  constructor(opts: MemoryStoreOptions = {}) {
    this.cache = opts.cache ?? new WatchCache(opts);
    this.table = this.cache.table;
    this.randomSuffix = opts.randomSuffix ?? defaultRandomSuffix;
    this.committer = opts.committer;
    this.stamps = new SecondStamps(opts.now ?? (() => new Date()));
  }

  /** rv is the version the next write would take without a backend (a placeholder with one). */
  private get rv(): number {
    return this.cache.version;
  }

  /** versionFor is the version a change of stored takes; a dry run writes nothing, so it keeps the stored one, as kube-apiserver answers. */
  private versionFor(stored: KubeObject, opts: S.WriteOptions): string {
    return opts.dryRun === true ? (stored.metadata.resourceVersion ?? '') : String(this.rv + 1);
  }

  /** create stores a new object; see ResourceStore.create. */
  create(ref: S.ResourceRef, obj: KubeObject, opts: S.CreateOptions = {}): Promise<KubeObject> {
    return checkedWrite(() => {
      const meta: ObjectMeta = obj.metadata ?? {};
      const namespace = meta.namespace ?? '';
      const name = pickName(this.table.cluster(ref), ref, namespace, meta, this.randomSuffix);
      // A dry run takes no version, as kube-apiserver's answer to one carries none.
      const resourceVersion = opts.dryRun === true ? '' : String(this.rv + 1);
      const stamp = { name, namespace, uid: this.uids.next(), resourceVersion, creationTimestamp: this.stamps.stamp() };
      const created = rules.createdObject(obj, stamp, { statusSubresource: opts.statusSubresource === true, generation: opts.generation !== false }, this.records);
      const bytes = deepFreezeMeasured(created);
      if (opts.dryRun === true) return created;
      const key = { ...ref, namespace, name };
      return this.persist(this.table.ensureResource(ref.group, ref.resource).ensureCluster(ref.cluster), { key, type: 'ADDED', object: created, previous: undefined, bytes });
    });
  }

  /** get returns the stored object; see ResourceStore.get. */
  async get(key: S.ObjectKey): Promise<KubeObject> {
    const obj = this.table.get(key);
    if (obj === undefined) throw notFound(key.group, key.resource, key.name);
    return obj;
  }

  /** lookup returns the stored object or undefined; see ResourceStore.lookup. */
  async lookup(key: S.ObjectKey): Promise<KubeObject | undefined> {
    return this.table.get(key);
  }

  /** peek is the synchronous get for in-process readers: the stored object or undefined. */
  peek(key: S.ObjectKey): KubeObject | undefined {
    return this.table.get(key);
  }

  /** indexed is the synchronous index lookup; see IndexReader.indexed. */
  indexed(scope: Pick<S.Scope, 'cluster' | 'group' | 'resource'>, index: string, value: string): KubeObject[] {
    return indexedObjects(this.table.resource(scope.group, scope.resource), scope.cluster, index, value);
  }

  indexedCount(scope: Pick<S.Scope, 'cluster' | 'group' | 'resource'>, index: string, value: string): number {
    return indexedCount(this.table.resource(scope.group, scope.resource), scope.cluster, index, value);
  }

  /** list returns one sorted page; see ResourceStore.list. */
  async list(scope: S.Scope, opts: S.ListOptions = {}): Promise<S.ListResult> {
    const limit = Math.max(0, Math.floor(opts.limit ?? 0));
    const paged = limit > 0 || (opts.continue !== undefined && opts.continue !== '');
    const fingerprint = paged ? listFingerprint(scope, opts) : '';
    if (opts.continue !== undefined && opts.continue !== '') return this.cache.snapshots.resume(opts.continue, fingerprint, limit);
    const table = this.table.resource(scope.group, scope.resource);
    const filters = planLabelIndex(table, scope, opts);
    // A first page of a large list is picked without sorting every match (see first-in-order.ts).
    const unsorted = limit > 0 ? collectUnsorted(table, scope, filters) : undefined;
    if (unsorted !== undefined) return this.cache.snapshots.start(unsorted, String(this.rv), fingerprint, limit, byNamespaceAndName);
    return this.cache.snapshots.start(collectObjects(table, scope, filters), String(this.rv), fingerprint, limit);
  }

  /** update replaces a stored object; see ResourceStore.update. */
  update(key: S.ObjectKey, obj: KubeObject, opts: S.UpdateOptions = {}): Promise<KubeObject> {
    return checkedWrite(() => this.updateOnce(key, obj, opts));
  }

  private updateOnce(key: S.ObjectKey, obj: KubeObject, opts: S.UpdateOptions): KubeObject | Promise<KubeObject> {
    const cluster = this.table.cluster(key);
    const stored = cluster?.get(key.namespace, key.name);
    if (cluster === undefined || stored === undefined) throw notFound(key.group, key.resource, key.name);
    const sent = obj.metadata?.resourceVersion;
    if (sent !== undefined && sent !== '' && sent !== stored.metadata.resourceVersion) throw conflict(key.group, key.resource, key.name);
    const rv = this.versionFor(stored, opts);
    const next =
      opts.subresource === 'status'
        ? rules.statusUpdatedObject(stored, obj, rv)
        : rules.updatedObject(stored, obj, rv, opts.statusSubresource === true, this.records);
    // Kubernetes answers a write that changes nothing with the stored object and no new version.
    if (rules.sameExceptVersion(next, stored)) return stored;
    const bytes = deepFreezeMeasured(next);
    if (opts.dryRun === true) return next;
    const finalized = stored.metadata.deletionTimestamp !== undefined && !rules.hasFinalizers(next);
    return this.persist(cluster, { key, type: finalized ? 'DELETED' : 'MODIFIED', object: next, previous: stored, bytes });
  }

  /** delete removes or marks an object; see ResourceStore.delete. */
  delete(key: S.ObjectKey, opts: S.DeleteOptions = {}): Promise<S.DeleteResult> {
    return checkedWrite(() => this.deleteOnce(key, opts));
  }

  /** deleteCollection deletes every match of a list; see ResourceStore.deleteCollection. */
  async deleteCollection(scope: S.Scope, list: S.ListOptions = {}, opts: S.DeleteOptions = {}): Promise<readonly KubeObject[]> {
    const clusters: string[] = [];
    const table = this.table.resource(scope.group, scope.resource);
    const matches = collectObjects(table, scope, planLabelIndex(table, scope, list), clusters);
    const keys = matches.map((obj, i) => ({ cluster: clusters[i] ?? '', group: scope.group, resource: scope.resource, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' }));
    const deleted: KubeObject[] = [];
    // With a backend, deletes go out in parallel waves, so commits can share the backend's batches.
    const wave = this.committer === undefined ? keys.length : DELETE_WAVE;
    for (let i = 0; i < keys.length; i += wave) {
      const results = await Promise.all(keys.slice(i, i + wave).map((key) => this.delete(key, opts).then((r) => r.object, (err: unknown) => skipGone(err))));
      for (const obj of results) if (obj !== undefined) deleted.push(obj);
    }
    return deleted;
  }

  /** watch streams changes; see ResourceStore.watch. */
  async watch(scope: S.Scope, opts: S.WatchOptions, listener: S.WatchListener): Promise<S.Watch> {
    return startWatch(this.cache.watchContext(), scope, opts, listener);
  }

  /** resourceVersion is the store's current version. */
  async resourceVersion(): Promise<string> {
    return String(this.rv);
  }

  /** addIndex registers an index; see ResourceStore.addIndex. */
  addIndex(group: string, resource: string, name: string, fn: S.IndexFunc): void {
    this.table.addIndex(group, resource, name, fn);
  }

  /** count counts a scope from maintained counters; see ResourceStore.count. */
  async count(scope: S.Scope): Promise<number> {
    return this.table.count(scope);
  }

  /** indexCounts counts objects per (cluster, index value); see ResourceStore.indexCounts. */
  async indexCounts(group: string, resource: string, indexName: string): Promise<S.IndexCount[]> {
    const counts = this.table.indexCounts(group, resource, indexName);
    if (counts === undefined) throw new AppError('BadRequest', `index "${indexName}" is not registered`);
    return counts;
  }

  private deleteOnce(key: S.ObjectKey, opts: S.DeleteOptions): S.DeleteResult | Promise<S.DeleteResult> {
    const cluster = this.table.cluster(key);
    const stored = cluster?.get(key.namespace, key.name);
    if (cluster === undefined || stored === undefined) throw notFound(key.group, key.resource, key.name);
    checkPreconditions(key, stored, opts.preconditions);
    const rv = this.versionFor(stored, opts);
    if (rules.hasFinalizers(stored) && opts.ignoreFinalizers !== true) {
      // Already marked: a repeated delete changes nothing, so it writes nothing.
      if (rules.isMarkedForDeletion(stored)) return { object: stored, deleted: false };
      const marked = rules.deletingObject(stored, this.stamps.stamp(), rv);
      const bytes = deepFreezeMeasured(marked);
      if (opts.dryRun === true) return { object: marked, deleted: false };
      return settle(this.persist(cluster, { key, type: 'MODIFIED', object: marked, previous: stored, bytes }), false);
    }
    // The DELETED event carries a new version, as the apiserver bumps the deleted object's.
    const final = rules.withResourceVersion(stored, rv);
    const bytes = deepFreezeMeasured(final);
    if (opts.dryRun === true) return { object: final, deleted: true };
    return settle(this.persist(cluster, { key, type: 'DELETED', object: final, previous: stored, bytes }), true);
  }

  /** size is the number of stored objects. */
  size(): number {
    return this.table.total();
  }

  /** persist commits a checked write: here at once, or through the committer. */
  private persist(cluster: ClusterTable, write: PlannedWrite): KubeObject | Promise<KubeObject> {
    if (this.committer !== undefined) return this.committer.persist(write);
    this.cache.commit(cluster, write.type, write.object, write.previous, write.bytes);
    return write.object;
  }
}
