// One replication controller per ClusterCachedResource: it keeps a CachedObject in the cache for
// every selected source object of one GVR in one logical cluster. Two views feed one queue of
// keys (`<namespace>/<name>` of the source object): the source informer (the local view) and a
// watch on the cache filtered to this (shard, cluster, schema) (the global view), so a copy that
// changes or disappears behind the controller's back is reconciled too.

import type { Logger } from 'pino';
import { isAppError } from '../../errors.js';
import { ChunkedMap } from '../../apimachinery/chunked-map.js';
import type { LoopTurns } from '../../apimachinery/loop-turns.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import type { LabelSelector } from '../../apimachinery/selector.js';
import { schemaOf } from '../../apimachinery/gvr.js';
import { cacheLocation } from '../../cachedobjects/cache-location.js';
import { trustedOrigin } from '../../cachedobjects/trusted-origin.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../../cachedobjects/cached-object-resource.js';
import type { IndexReader, ResourceStore, Watch } from '../../store/store.js';
import { Controller } from '../runtime/controller.js';
import { WorkQueue } from '../runtime/work-queue.js';
import type { ControllerMetrics } from '../runtime/controller-metrics.js';
import type { QueueMetrics } from '../runtime/queue-metrics.js';
import { CopyStore } from './copy-store.js';
import { reconcileReplication } from './replication-reconcile.js';
import { shouldReplicate } from './replication-reconcile.js';
import type { ReplicationDeps } from './replication-reconcile.js';
import type { ReplicationSpec } from './replication-spec.js';
import type { SourceView } from './source-view.js';
import { LeftOutKeys } from './left-out-keys.js';
import { OwnWrites } from './own-writes.js';

/** SYNC_POLL_MS is how often a child checks whether its source view has listed (client-go polls every 100 ms). */
const SYNC_POLL_MS = 50;

/** ReplicationCounts are the CCR's status.resourceCounts. */
export interface ReplicationCounts {
  readonly local: number;
  readonly cache: number;
}

/** ReplicationOptions are what app wiring hands a child controller. */
export interface ReplicationOptions {
  readonly spec: ReplicationSpec;
  readonly source: SourceView;
  readonly cache: ResourceStore & IndexReader;
  readonly log: Logger;
  readonly workers: number;
  readonly queueMetrics?: QueueMetrics;
  readonly controllerMetrics?: ControllerMetrics;
  /** onCountsChanged tells the parent its counts moved (it coalesces status writes). */
  readonly onCountsChanged: () => void;
  /** observeLag receives, per written or deleted copy, the seconds since the change was first seen. */
  readonly observeLag?: (seconds: number) => void;
  /** turns: the replication controllers of a process share one budget per event-loop turn. */
  readonly turns?: LoopTurns;
}

/** ReplicationController replicates one GVR of one logical cluster into the cache. */
export class ReplicationController {
  readonly #opts: ReplicationOptions;
  readonly #copies: CopyStore;
  readonly #controller: Controller;
  #selector: LabelSelector;
  /** leftOut: the held source objects not replicated; the counts are read from the source view and the cache. */
  readonly #leftOut = new LeftOutKeys();
  #removeHandler: (() => void) | undefined;
  #cacheWatch: Watch | undefined;
  #syncPoll: NodeJS.Timeout | undefined;
  /**
   * seenAt: when a source change of each key not yet reconciled was first seen (for the lag
   * metric). It holds every key of an initial sync: chunked, as the work queue's keys are.
   */
  readonly #seenAt = new ChunkedMap<number>();
  /** ownWrites: the copy writes in flight, whose own watch events are not reconciled again. */
  readonly #ownWrites = new OwnWrites();
  #synced = false;
  /** deps are built once: a reconcile runs for every source change, and closures per call add up. */
  readonly #deps: ReplicationDeps;

  constructor(opts: ReplicationOptions) {
    this.#opts = opts;
    this.#selector = opts.spec.selector;
    this.#copies = new CopyStore(opts.cache, opts.spec, (listed, kept) => opts.source.adopt(listed, kept));
    this.#deps = {
      getSource: (namespace, name) => opts.source.get(opts.spec.cluster, namespace, name),
      getCopy: (namespace, name) => this.#copies.find(namespace, name),
      selector: () => this.#selector,
      desiredCopy: (original, existing) => this.#copies.desired(original, existing),
      isUpToDate: (existing, desired) => this.#copies.isUpToDate(existing, desired),
      createCopy: (copy, namespace, name) => this.#ownWrites.run(keyOf(namespace, name), copy, () => this.#copies.create(copy)),
      updateCopy: (copy, existing, namespace, name) => this.#ownWrites.run(keyOf(namespace, name), copy, () => this.#copies.update(copy, existing)),
      deleteCopy: (existing, namespace, name) => this.#ownWrites.run(keyOf(namespace, name), existing, () => this.#copies.delete(existing)),
    };
    const name = `replication:${opts.spec.shard}|${opts.spec.cluster}|${schemaOf(opts.spec.gvr)}`;
    this.#controller = new Controller({
      name,
      workers: opts.workers,
      reconcile: (key) => this.#reconcile(key),
      log: opts.log,
      metrics: opts.controllerMetrics,
      queue: new WorkQueue({ name: name, metrics: opts.queueMetrics }),
      turns: opts.turns,
    });
  }

  /** start subscribes to both views and starts the workers. */
  async start(): Promise<void> {
    const { spec } = this.#opts;
    this.#cacheWatch = await this.#opts.cache.watch(
      {
        cluster: cacheLocation(spec.shard, spec.cluster),
        group: CACHED_OBJECTS_GROUP,
        resource: CACHED_OBJECTS_RESOURCE,
        where: this.#copies.schemaFilter,
      },
      {},
      (event) => this.#onCopyEvent(event.type, event.object),
    );
    this.#removeHandler = this.#opts.source.addHandler({
      add: (obj) => this.#onSource(obj, 'held'),
      update: (obj) => this.#onSource(obj),
      delete: (obj) => this.#onSource(obj, 'gone'),
    });
    this.#startWhenSynced();
  }

  /**
   * #startWhenSynced starts the workers once the source view has listed, as controller-runtime
   * waits for its caches: before that, every original looks absent, and a cache that already
   * holds copies (a restart over durable state) would have them all deleted and written again.
   * Keys queued meanwhile wait in the queue.
   */
  #startWhenSynced(): void {
    if (this.#opts.source.hasSynced()) {
      this.#controller.start();
      return;
    }
    this.#syncPoll = setTimeout(() => this.#startWhenSynced(), SYNC_POLL_MS);
  }

  /** stop ends both views and waits for running reconciles; copies stay (the parent purges), its metric series go. */
  async stop(): Promise<void> {
    clearTimeout(this.#syncPoll);
    this.#removeHandler?.();
    this.#cacheWatch?.stop();
    await this.#controller.stop();
    this.#opts.queueMetrics?.removeSeries(this.#controller.queue.name);
    this.#opts.controllerMetrics?.removeSeries(this.#controller.name);
  }

  /** updateSelector applies a new label selector to every source object and copy. */
  updateSelector(selector: LabelSelector): void {
    if (selector.toString() === this.#selector.toString()) return;
    this.#selector = selector;
    this.#leftOut.clear();
    for (const obj of this.#opts.source.list()) this.#onSource(obj);
    for (const copy of this.#copies.all()) {
      const origin = trustedOrigin(copy);
      if (origin !== undefined) this.#controller.enqueue(keyOf(origin.namespace, origin.name));
    }
  }

  /** counts are the numbers of replicated source objects (held and not left out) and of copies in the cache. */
  counts(): ReplicationCounts {
    return { local: this.#opts.source.size - this.#leftOut.size, cache: this.#copies.count() };
  }

  /** spec is what this controller replicates. */
  get spec(): ReplicationSpec {
    return this.#opts.spec;
  }

  /**
   * isIdle tells whether every source change handed to this controller so far has been
   * reconciled: no key queued, being reconciled, or waiting for a retry.
   */
  isIdle(): boolean {
    return this.#controller.isIdle();
  }

  /**
   * hasSynced tells whether the first sync is done: the source view has listed, and every key
   * found then (its objects, and the copies already in the cache) has been reconciled once, so a
   * copy whose original went away while the process was down is gone too. It stays true after.
   */
  hasSynced(): boolean {
    this.#synced ||= this.#opts.source.hasSynced() && this.#controller.isSettled();
    return this.#synced;
  }

  /** #onSource queues obj's key; held and gone (an add or a delete) change the view's size, so the counts. */
  #onSource(obj: KubeObject, change?: 'held' | 'gone'): void {
    const key = keyOf(obj.metadata.namespace ?? '', obj.metadata.name ?? '');
    const leftOutChanged = this.#leftOut.note(key, change !== 'gone' && !shouldReplicate(obj, this.#selector));
    if (leftOutChanged || change !== undefined) this.#opts.onCountsChanged();
    if (this.#opts.observeLag && !this.#seenAt.has(key)) this.#seenAt.set(key, performance.now());
    this.#controller.enqueue(key);
  }

  #onCopyEvent(type: string, copy: KubeObject): void {
    const origin = trustedOrigin(copy);
    if (origin === undefined) {
      // A copy whose labels were stripped or rewritten no longer says whose copy it is. That only
      // happens when someone tampers with the cache, so re-check every object rather than track
      // every name.
      this.#resync();
      return;
    }
    const key = keyOf(origin.namespace, origin.name);
    if (type === 'ADDED' || type === 'DELETED') this.#opts.onCountsChanged();
    if (!this.#ownWrites.caused(key, type, copy)) this.#controller.enqueue(key);
  }

  #resync(): void {
    for (const obj of this.#opts.source.list()) this.#controller.enqueue(keyOf(obj.metadata.namespace ?? '', obj.metadata.name ?? ''));
  }

  #reconcile(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const seenAt = this.#seenAt.get(key);
    this.#seenAt.delete(key);
    // Handlers on the reconcile's promise rather than an async frame of its own (see OwnWrites.run).
    return reconcileReplication(this.#deps, namespace, name).then(
      (outcome) => {
        if (seenAt !== undefined && outcome !== 'unchanged' && outcome !== 'absent') this.#opts.observeLag?.((performance.now() - seenAt) / 1000);
      },
      (err: unknown) => {
        if (seenAt !== undefined && !this.#seenAt.has(key)) this.#seenAt.set(key, seenAt);
        // A lost race with a concurrent writer is retried with backoff by the queue; say so quietly.
        if (isAppError(err, 'Conflict') || isAppError(err, 'AlreadyExists')) this.#opts.log.debug({ key }, 'replication race, retrying');
        throw err;
      },
    );
  }
}

// Keys as client-go's MetaNamespaceKeyFunc makes them: `<namespace>/<name>`, or the bare name of a
// cluster-scoped object. That bare name is the object's own string, so a key kept per object
// (the work queue's, LeftOutKeys') costs no string of its own.
function keyOf(namespace: string, name: string): string {
  return namespace === '' ? name : `${namespace}/${name}`;
}

function splitKey(key: string): [string, string] {
  const slash = key.indexOf('/');
  return slash < 0 ? ['', key] : [key.slice(0, slash), key.slice(slash + 1)];
}
