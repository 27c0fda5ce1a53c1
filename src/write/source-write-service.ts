// The one write service under REST and GraphQL (write-service.ts is its contract). A write goes
// to the source's dynamic client; when it succeeds, is not a dry run, and its kind is overlaid
// (config `cache.enabled` and `cache.gvks`), the source's answer is recorded in the overlay so the
// writer reads it back at once (src/overlay/README.md, "How the write service uses it"). The
// source call and the recording of one object run under one lock, so recordings follow the order
// of commits. A failed write records nothing and its error goes back unchanged.

import { isAppError } from '../errors.js';
import type { GroupVersionResource } from '../apimachinery/gvr.js';
import { parseLabelSelector } from '../apimachinery/label-selector.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { survivesDelete } from '../overlay/delete-outcome.js';
import type { KeyedMutex } from '../overlay/key-lock.js';
import type { OverlayKey } from '../overlay/overlay-key.js';
import type { ObservedCopy } from '../overlay/overlay.js';
import type { OverlayRecorder } from '../overlay/overlay-recorder.js';
import type {
  DeleteOptions, NamedTarget, PatchType, WriteOptions, WriteResult, WriteService, WriteTarget,
} from './write-service.js';
import { chooseSource } from './source-choice.js';
import { gvrOf, isObject, keyOf, lockKey, named, resultOf, withMeta } from './write-mapping.js';
import type { WrittenScopes } from './written-scopes.js';

/** WriteClient is what the write service needs of a source's DynamicClient. */
export interface WriteClient {
  create(cluster: string, gvr: GroupVersionResource, namespace: string | undefined, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject>;
  update(cluster: string, gvr: GroupVersionResource, namespace: string | undefined, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject>;
  updateStatus(cluster: string, gvr: GroupVersionResource, namespace: string | undefined, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject>;
  patch(
    cluster: string, gvr: GroupVersionResource, namespace: string | undefined, name: string,
    patch: unknown, type: PatchType, subresource?: string, opts?: WriteOptions,
  ): Promise<KubeObject>;
  delete(cluster: string, gvr: GroupVersionResource, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<KubeObject>;
  listAll(cluster: string | undefined, gvr: GroupVersionResource, opts?: { readonly labelSelector?: string }): Promise<{ readonly items: readonly KubeObject[] }>;
}

/** WriteSource is one source as the write service sees it. */
export interface WriteSource {
  readonly client: WriteClient;
}

/** ResourceKind is what discovery says about a resource. */
export interface ResourceKind {
  readonly kind: string;
  readonly namespaced: boolean;
}

/** WriteServiceDeps are what the write service writes through and records into. */
export interface WriteServiceDeps {
  /** sources are the running sources by name (= shard); empty until the app has started them. */
  readonly sources: () => ReadonlyMap<string, WriteSource>;
  /** overlay is undefined when `cache.enabled` is false: nothing is recorded, at no cost. */
  readonly overlay: OverlayRecorder | undefined;
  /** isOverlaid tells whether a kind is listed in `cache.gvks` (group '' or `core` for the core group). */
  readonly isOverlaid: (group: string, version: string, kind: string) => boolean;
  /** resolveKind maps a resource to its kind in one logical cluster of a source (undefined: not served). */
  readonly resolveKind: (shard: string, cluster: string, gvr: GroupVersionResource) => Promise<ResourceKind | undefined>;
  /** cacheCopy is the cache's copy of an original (unwrapped), or undefined. */
  readonly cacheCopy: (key: OverlayKey, version: string) => Promise<KubeObject | undefined>;
  /** cacheObjectsIn lists the cache's originals of one resource in one cluster (and namespace, when given). */
  readonly cacheObjectsIn: (shard: string, cluster: string, gvr: GroupVersionResource, namespace?: string) => Promise<KubeObject[]>;
  /**
   * recentDeletion is the cache's removal of the copy of a key seen in the last seconds, if any.
   * A delete whose own event reached the cache before its response is recorded, and replaying
   * that removal drops the tombstone at once instead of keeping it until the TTL.
   */
  readonly recentDeletion?: (key: OverlayKey) => ObservedCopy | undefined;
  /** scopes learns every scope a write is recorded in (reads look there for overlay-only objects). */
  readonly scopes?: WrittenScopes;
  readonly locks: KeyedMutex;
}

/** DELETE_ALL_OF_CONCURRENCY bounds the deletes a delete-all-of runs at once. */
const DELETE_ALL_OF_CONCURRENCY = 8;

type Call = (client: WriteClient, cluster: string, gvr: GroupVersionResource) => Promise<KubeObject>;

/** createWriteService builds the write service over the app's sources and overlay. */
export function createWriteService(deps: WriteServiceDeps): WriteService {
  return new SourceWriteService(deps);
}

class SourceWriteService implements WriteService {
  readonly #deps: WriteServiceDeps;

  constructor(deps: WriteServiceDeps) {
    this.#deps = deps;
  }

  async create(target: WriteTarget, obj: KubeObject, opts: WriteOptions = {}): Promise<WriteResult> {
    const namespace = target.namespace ?? obj.metadata.namespace;
    const body = namespace !== undefined && obj.metadata.namespace === undefined ? withMeta(obj, { namespace }) : obj;
    return this.#upsert(target, namespace, obj.metadata.name, opts, (client, cluster, gvr) => client.create(cluster, gvr, namespace, body, opts));
  }

  async update(target: NamedTarget, obj: KubeObject, opts: WriteOptions = {}): Promise<WriteResult> {
    const namespace = target.namespace ?? obj.metadata.namespace;
    const body = named(obj, target.name);
    return this.#upsert(target, namespace, target.name, opts, (client, cluster, gvr) => client.update(cluster, gvr, namespace, body, opts));
  }

  async patch(target: NamedTarget, patch: unknown, type: PatchType, opts: WriteOptions = {}): Promise<WriteResult> {
    return this.#upsert(target, target.namespace, target.name, opts,
      (client, cluster, gvr) => client.patch(cluster, gvr, target.namespace, target.name, patch, type, undefined, opts));
  }

  async updateStatus(target: NamedTarget, obj: KubeObject, opts: WriteOptions = {}): Promise<WriteResult> {
    const namespace = target.namespace ?? obj.metadata.namespace;
    const body = named(obj, target.name);
    return this.#upsert(target, namespace, target.name, opts, (client, cluster, gvr) => client.updateStatus(cluster, gvr, namespace, body, opts));
  }

  async patchStatus(target: NamedTarget, patch: unknown, type: PatchType, opts: WriteOptions = {}): Promise<WriteResult> {
    return this.#upsert(target, target.namespace, target.name, opts,
      (client, cluster, gvr) => client.patch(cluster, gvr, target.namespace, target.name, patch, type, 'status', opts));
  }

  async delete(target: NamedTarget, opts: DeleteOptions = {}): Promise<WriteResult> {
    const { shard, client } = this.#source(target.shard);
    const gvr = gvrOf(target);
    const overlay = opts.dryRun ? undefined : this.#deps.overlay;
    const call = async (): Promise<WriteResult> => {
      const response = await client.delete(target.cluster, gvr, target.namespace, target.name, opts);
      if (overlay !== undefined) await this.#recordDelete(overlay, shard, target, gvr, response, opts);
      return resultOf(response, shard, target.cluster, gvr);
    };
    if (overlay === undefined) return call();
    return this.#deps.locks.run(lockKey(shard, target, target.namespace, target.name), call);
  }

  async deleteAllOf(
    target: WriteTarget, labelSelector: string | undefined, opts: WriteOptions = {},
  ): Promise<{ readonly items: readonly KubeObject[]; readonly shard: string; readonly cluster: string }> {
    const selector = parseLabelSelector(labelSelector ?? '');
    const { shard, client } = this.#source(target.shard);
    const gvr = gvrOf(target);
    const listed = await client.listAll(target.cluster, gvr, labelSelector ? { labelSelector } : {});
    const matching = listed.items.filter((item) => !target.namespace || item.metadata.namespace === target.namespace);
    const deleted: KubeObject[] = [];
    const queue = [...matching];
    const worker = async (): Promise<void> => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        const named: NamedTarget = { ...target, shard, name: item.metadata.name ?? '', ...(item.metadata.namespace ? { namespace: item.metadata.namespace } : {}) };
        try {
          const result = await this.delete(named, { ...opts, ...(item.metadata.uid ? { preconditions: { uid: item.metadata.uid } } : {}) });
          deleted.push(result.object !== undefined && isObject(result.object) ? result.object : item);
        } catch (err) {
          // Gone already, or replaced by a new object of the same name since the list: not ours to delete.
          if (!isAppError(err, 'NotFound') && !isAppError(err, 'Conflict')) throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(DELETE_ALL_OF_CONCURRENCY, queue.length) }, worker));
    const overlay = opts.dryRun ? undefined : this.#deps.overlay;
    if (overlay !== undefined && (await this.#overlaid(shard, target.cluster, gvr, matching[0]))) {
      // Objects the cache still holds but the source no longer has (deleted, not yet replicated)
      // match too: hide them as well, so the whole selection disappears for readers at once.
      const scope = { shard, cluster: target.cluster, group: gvr.group, resource: gvr.resource, ...(target.namespace ? { namespace: target.namespace } : {}) };
      const cacheObjects = await this.#deps.cacheObjectsIn(shard, target.cluster, gvr, target.namespace);
      await overlay.recordDeleteAllOf(scope, (object) => selector.matches(object.metadata.labels), cacheObjects);
      this.#deps.scopes?.add(scope);
    }
    deleted.sort((a, b) => `${a.metadata.namespace ?? ''}/${a.metadata.name ?? ''}`.localeCompare(`${b.metadata.namespace ?? ''}/${b.metadata.name ?? ''}`));
    return { items: deleted, shard, cluster: target.cluster };
  }

  // A create, update, patch or status write: call the source, then record its answer.
  async #upsert(target: WriteTarget, namespace: string | undefined, name: string | undefined, opts: WriteOptions, call: Call): Promise<WriteResult> {
    const { shard, client } = this.#source(target.shard);
    const gvr = gvrOf(target);
    const overlay = opts.dryRun ? undefined : this.#deps.overlay;
    const run = async (): Promise<WriteResult> => {
      const object = await call(client, target.cluster, gvr);
      if (overlay !== undefined) await this.#recordUpsert(overlay, shard, target.cluster, gvr, object);
      return resultOf(object, shard, target.cluster, gvr);
    };
    // A create with generateName has no name to serialize on; nothing else can write it yet.
    if (overlay === undefined || !name) return run();
    return this.#deps.locks.run(lockKey(shard, target, namespace, name), run);
  }

  async #recordUpsert(overlay: OverlayRecorder, shard: string, cluster: string, gvr: GroupVersionResource, object: KubeObject): Promise<void> {
    if (!(await this.#overlaid(shard, cluster, gvr, object))) return;
    const key = keyOf(shard, cluster, gvr, object.metadata.namespace ?? '', object.metadata.name ?? '');
    const copy = await this.#deps.cacheCopy(key, gvr.version);
    // A write that removed the last finalizer of an object being deleted completed its deletion:
    // the answer (deletionTimestamp set, nothing left to hold it) is the object as removed.
    const completedDeletion = typeof object.metadata.deletionTimestamp === 'string' && object.metadata.deletionTimestamp !== '' && !(survivesDelete(object) as boolean);
    if (completedDeletion) await overlay.recordDelete(key, object, copy);
    else await overlay.recordUpsert(key, object, copy);
    this.#deps.scopes?.add(key);
  }

  async #recordDelete(overlay: OverlayRecorder, shard: string, target: NamedTarget, gvr: GroupVersionResource, response: KubeObject, opts: DeleteOptions): Promise<void> {
    // Finalizers pending (or a graceful deletion): the object is still there, marked.
    const survives: boolean = survivesDelete(response);
    if (survives) return this.#recordUpsert(overlay, shard, target.cluster, gvr, response);
    const object = isObject(response) ? response : undefined;
    if (!(await this.#overlaid(shard, target.cluster, gvr, object))) return;
    const key = keyOf(shard, target.cluster, gvr, object?.metadata.namespace ?? target.namespace ?? '', target.name);
    const copy = await this.#deps.cacheCopy(key, gvr.version);
    await overlay.recordDelete(key, object ?? opts.preconditions ?? {}, copy);
    this.#deps.scopes?.add(key);
    if (copy === undefined) {
      const removal = this.#deps.recentDeletion?.(key);
      if (removal !== undefined) overlay.observe(key, removal);
    }
  }

  // Whether a kind is overlaid: the kind comes from the answer when it names one, else from discovery.
  async #overlaid(shard: string, cluster: string, gvr: GroupVersionResource, object: KubeObject | undefined): Promise<boolean> {
    const answered = object !== undefined && typeof object.kind === 'string' && object.kind !== '' && object.kind !== 'Status' ? object.kind : undefined;
    const kind = answered ?? (await this.#deps.resolveKind(shard, cluster, gvr))?.kind;
    return kind !== undefined && this.#deps.isOverlaid(gvr.group, gvr.version, kind);
  }

  // The source a write goes to: the named shard, or the only source (source-choice.ts).
  #source(shard: string | undefined): { shard: string; client: WriteClient } {
    const chosen = chooseSource(this.#deps.sources(), shard);
    return { shard: chosen.shard, client: chosen.source.client };
  }
}
