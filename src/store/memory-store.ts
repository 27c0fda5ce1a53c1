// The in-memory ResourceStore. Everything happens synchronously inside each call (the methods are
// async only to honour the interface), so a write, its resourceVersion, its event-window entry
// and its delivery to watchers form one atomic step. All state is per instance.

import { randomInt, randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import { flatString } from '../apimachinery/flat-string.js';
import { deepFreezeMeasured } from '../apimachinery/object-bytes.js';
import type { KubeObject, ObjectMeta } from '../apimachinery/object-meta.js';
import { DEFAULT_EVENT_WINDOW_BYTES, EventWindow } from './event-window.js';
import type { ChangeType } from './event-window.js';
import { collectObjects, indexedObjects, listFingerprint } from './list-query.js';
import { ListSnapshots } from './list-snapshots.js';
import { ObjectTable } from './object-table.js';
import type { ClusterTable } from './object-table.js';
import { alreadyExists, conflict, nameRequired, notFound } from './store-errors.js';
import type * as S from './store.js';
import { startWatch } from './watch-start.js';
import { WatchHub } from './watch-hub.js';
import * as rules from './write-rules.js';

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const SUFFIX_LENGTH = 5;
/** GENERATE_NAME_ATTEMPTS bounds the retries on a generated-name collision (27^5 names per prefix). */
const GENERATE_NAME_ATTEMPTS = 16;

/** MemoryStoreOptions tune a MemoryStore; every field has a default. */
export interface MemoryStoreOptions {
  /** eventWindow is how many events are kept for watch resume (default 100 000). */
  readonly eventWindow?: number;
  /** eventWindowBytes bounds the estimated bytes of the objects those events hold (default DEFAULT_EVENT_WINDOW_BYTES). */
  readonly eventWindowBytes?: number;
  /** continueTtlMs is how long a paged list's snapshot is kept (default 5 minutes). */
  readonly continueTtlMs?: number;
  /** maxSnapshots bounds the kept list snapshots; the oldest is evicted first (default 1000). */
  readonly maxSnapshots?: number;
  /** maxSnapshotItems bounds the object references the kept snapshots hold (default 10 million, ~80 MB). */
  readonly maxSnapshotItems?: number;
  readonly now?: () => Date;
  /** randomSuffix gives the 5 characters appended to generateName. */
  readonly randomSuffix?: () => string;
  /** onListenerError is told when a watch listener throws; that watch is stopped (default: ignore). */
  readonly onListenerError?: (error: unknown) => void;
}

/** defaultRandomSuffix draws 5 characters from the Kubernetes name-generator alphabet. */
export function defaultRandomSuffix(): string {
  let out = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) out += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
  return out;
}

/** MemoryStore is a ResourceStore held in process memory. */
export class MemoryStore implements S.ResourceStore, S.IndexReader {
  private readonly table = new ObjectTable();
  private readonly hub = new WatchHub();
  private readonly window: EventWindow;
  private readonly snapshots: ListSnapshots;
  private readonly now: () => Date;
  private readonly randomSuffix: () => string;
  private readonly onListenerError: (error: unknown) => void;
  private rv = 0;
  // Objects created in the same second share one timestamp string.
  private stampSecond = Number.NaN;
  private stampText = '';

  constructor(opts: MemoryStoreOptions = {}) {
    this.now = opts.now ?? (() => new Date());
    this.randomSuffix = opts.randomSuffix ?? defaultRandomSuffix;
    this.onListenerError = opts.onListenerError ?? (() => undefined);
    this.window = new EventWindow({ maxEvents: opts.eventWindow ?? 100_000, maxBytes: opts.eventWindowBytes ?? DEFAULT_EVENT_WINDOW_BYTES });
    this.snapshots = new ListSnapshots({ ttlMs: opts.continueTtlMs ?? 5 * 60_000, max: opts.maxSnapshots ?? 1000, maxItems: opts.maxSnapshotItems ?? 10_000_000, now: this.now });
  }

  /** create stores a new object; see ResourceStore.create. */
  async create(ref: S.ResourceRef, obj: KubeObject, opts: S.CreateOptions = {}): Promise<KubeObject> {
    const meta: ObjectMeta = obj.metadata ?? {};
    const namespace = meta.namespace ?? '';
    const name = this.pickName(ref, namespace, meta);
    const stamp = { name, namespace, uid: flatString(randomUUID()), resourceVersion: String(this.rv + 1), creationTimestamp: this.timestamp() };
    const created = rules.createdObject(obj, stamp, opts.statusSubresource === true);
    const bytes = deepFreezeMeasured(created);
    if (opts.dryRun !== true) {
      this.commit(this.table.ensureResource(ref.group, ref.resource).ensureCluster(ref.cluster), 'ADDED', created, undefined, bytes);
    }
    return created;
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

  /** list returns one sorted page; see ResourceStore.list. */
  async list(scope: S.Scope, opts: S.ListOptions = {}): Promise<S.ListResult> {
    const limit = Math.max(0, Math.floor(opts.limit ?? 0));
    const paged = limit > 0 || (opts.continue !== undefined && opts.continue !== '');
    const fingerprint = paged ? listFingerprint(scope, opts) : '';
    if (opts.continue !== undefined && opts.continue !== '') return this.snapshots.resume(opts.continue, fingerprint, limit);
    const items = collectObjects(this.table.resource(scope.group, scope.resource), scope, opts);
    return this.snapshots.start(items, String(this.rv), fingerprint, limit);
  }

  /** update replaces a stored object; see ResourceStore.update. */
  async update(key: S.ObjectKey, obj: KubeObject, opts: S.UpdateOptions = {}): Promise<KubeObject> {
    const cluster = this.table.cluster(key);
    const stored = cluster?.get(key.namespace, key.name);
    if (cluster === undefined || stored === undefined) throw notFound(key.group, key.resource, key.name);
    const sent = obj.metadata?.resourceVersion;
    if (sent !== undefined && sent !== '' && sent !== stored.metadata.resourceVersion) throw conflict(key.group, key.resource, key.name);
    const rv = String(this.rv + 1);
    const next =
      opts.subresource === 'status'
        ? rules.statusUpdatedObject(stored, obj, rv)
        : rules.updatedObject(stored, obj, rv, opts.statusSubresource === true);
    // Kubernetes answers a write that changes nothing with the stored object and no new version.
    if (rules.sameExceptVersion(next, stored)) return stored;
    const bytes = deepFreezeMeasured(next);
    if (opts.dryRun === true) return next;
    const finalized = stored.metadata.deletionTimestamp !== undefined && !rules.hasFinalizers(next);
    this.commit(cluster, finalized ? 'DELETED' : 'MODIFIED', next, stored, bytes);
    return next;
  }

  /** delete removes or marks an object; see ResourceStore.delete. */
  async delete(key: S.ObjectKey, opts: S.DeleteOptions = {}): Promise<S.DeleteResult> {
    return this.deleteNow(key, opts);
  }

  /** deleteCollection deletes every match of a list; see ResourceStore.deleteCollection. */
  async deleteCollection(scope: S.Scope, list: S.ListOptions = {}, opts: S.DeleteOptions = {}): Promise<readonly KubeObject[]> {
    const clusters: string[] = [];
    const matches = collectObjects(this.table.resource(scope.group, scope.resource), scope, list, clusters);
    return matches.map((obj, i) => {
      const key = { cluster: clusters[i] ?? '', group: scope.group, resource: scope.resource, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
      return this.deleteNow(key, opts).object;
    });
  }

  /** watch streams changes; see ResourceStore.watch. */
  async watch(scope: S.Scope, opts: S.WatchOptions, listener: S.WatchListener): Promise<S.Watch> {
    const ctx = { table: this.table, window: this.window, hub: this.hub, currentRv: () => this.rv, onListenerError: this.onListenerError };
    return startWatch(ctx, scope, opts, listener);
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

  private deleteNow(key: S.ObjectKey, opts: S.DeleteOptions): S.DeleteResult {
    const cluster = this.table.cluster(key);
    const stored = cluster?.get(key.namespace, key.name);
    if (cluster === undefined || stored === undefined) throw notFound(key.group, key.resource, key.name);
    checkPreconditions(key, stored, opts.preconditions);
    const rv = String(this.rv + 1);
    if (rules.hasFinalizers(stored) && opts.ignoreFinalizers !== true) {
      // Already marked: a repeated delete changes nothing, so it writes nothing.
      if (rules.isMarkedForDeletion(stored)) return { object: stored, deleted: false };
      const marked = rules.deletingObject(stored, this.timestamp(), rv);
      const bytes = deepFreezeMeasured(marked);
      if (opts.dryRun !== true) this.commit(cluster, 'MODIFIED', marked, stored, bytes);
      return { object: marked, deleted: false };
    }
    // The DELETED event carries a new version, as the apiserver bumps the deleted object's.
    const final = rules.withResourceVersion(stored, rv);
    const bytes = deepFreezeMeasured(final);
    if (opts.dryRun !== true) this.commit(cluster, 'DELETED', final, stored, bytes);
    return { object: final, deleted: true };
  }

  /** commit makes a checked write visible: table, version, event window, watchers; bytes is object's estimated size. */
  private commit(cluster: ClusterTable, type: ChangeType, object: KubeObject, previous: KubeObject | undefined, bytes: number): void {
    const rv = this.rv + 1;
    if (type === 'DELETED' && previous !== undefined) this.table.remove(cluster, previous);
    else this.table.put(cluster, object, previous);
    this.rv = rv;
    this.window.push(rv, type, object, previous, cluster, bytes);
    // A snapshot the window no longer covers could be the last holder of replaced versions.
    this.snapshots.expireBefore(this.window.oldestResumable());
    this.hub.publish(rv, type, object, previous, cluster);
  }

  private pickName(ref: S.ResourceRef, namespace: string, meta: ObjectMeta): string {
    const cluster = this.table.cluster(ref);
    const taken = (name: string): boolean => cluster?.get(namespace, name) !== undefined;
    if (meta.name !== undefined && meta.name !== '') {
      if (taken(meta.name)) throw alreadyExists(ref.group, ref.resource, meta.name);
      return meta.name;
    }
    if (meta.generateName === undefined || meta.generateName === '') throw nameRequired(ref.group, ref.resource);
    let name = '';
    for (let attempt = 0; attempt < GENERATE_NAME_ATTEMPTS; attempt++) {
      name = flatString(meta.generateName + this.randomSuffix());
      if (!taken(name)) return name;
    }
    throw alreadyExists(ref.group, ref.resource, name);
  }

  private timestamp(): string {
    const date = this.now();
    const second = Math.floor(date.getTime() / 1000);
    if (second !== this.stampSecond) {
      this.stampSecond = second;
      this.stampText = rules.rfc3339Seconds(date);
    }
    return this.stampText;
  }
}

function checkPreconditions(key: S.ObjectKey, stored: KubeObject, pre: S.Preconditions | undefined): void {
  const meta = stored.metadata;
  if (pre?.uid !== undefined && pre.uid !== meta.uid) {
    throw conflict(key.group, key.resource, key.name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    const why = `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`;
    throw conflict(key.group, key.resource, key.name, why);
  }
}
