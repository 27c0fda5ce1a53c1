// The root controller of one source: it watches the source's ClusterCachedResources in every
// logical cluster, and for each runs the reconcile chain, which starts and stops one replication
// controller per CCR. Counts changing in a child coalesce into one status write per COUNTS_DELAY_MS.

import type { Logger } from 'pino';
import { schemaOf } from '../../apimachinery/gvr.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import type { ReplicationSpec } from '../replication/replication-spec.js';
import { Controller } from '../runtime/controller.js';
import { WorkQueue } from '../runtime/work-queue.js';
import type { ControllerMetrics } from '../runtime/controller-metrics.js';
import type { QueueMetrics } from '../runtime/queue-metrics.js';
import type { SourceView } from '../replication/source-view.js';
import type { CcrClient, CopyPurger, ResolveResource, StartChild } from './ccr-deps.js';
import { reconcileCcr } from './ccr-reconcile.js';
import { ccrKey, readCcr, splitCcrKey } from './ccr-view.js';
import { ChildRegistry } from './child-registry.js';
import { InitialSync } from './initial-sync.js';
import { isStatusOnlyChange } from './status-only-change.js';

/** COUNTS_DELAY_MS bounds how often count changes are written to a CCR's status. */
export const COUNTS_DELAY_MS = 200;

/** CcrControllerOptions wire one root controller. */
export interface CcrControllerOptions {
  /** shard is the source's name. */
  readonly shard: string;
  /** ccrs is the source's CCR informer, across logical clusters. */
  readonly ccrs: SourceView & { clusterOf(obj: KubeObject): string };
  readonly client: CcrClient;
  readonly resolve: ResolveResource;
  readonly startChild: StartChild;
  readonly purger: CopyPurger;
  readonly log: Logger;
  readonly workers: number;
  readonly now?: () => Date;
  readonly queueMetrics?: QueueMetrics;
  readonly controllerMetrics?: ControllerMetrics;
}

/** ClusterCachedResourceController reconciles the CCRs of one source. */
export class ClusterCachedResourceController {
  readonly #opts: CcrControllerOptions;
  readonly #children: ChildRegistry;
  readonly #controller: Controller;
  readonly #initialSync: InitialSync;
  #removeHandler: (() => void) | undefined;

  constructor(opts: CcrControllerOptions) {
    this.#opts = opts;
    this.#children = new ChildRegistry(opts.startChild, opts.purger, (key, spec) => this.#claimedElsewhere(key, spec));
    this.#initialSync = new InitialSync({
      ccrsSynced: () => opts.ccrs.hasSynced(),
      stored: (key) => {
        const { cluster, name } = splitCcrKey(key);
        return opts.ccrs.get(cluster, '', name);
      },
      childSynced: (key) => this.#children.get(key)?.hasSynced(),
    });
    this.#controller = new Controller({
      name: `clustercachedresources:${opts.shard}`,
      workers: opts.workers,
      reconcile: async (key) => {
        const requeueAfterMs = await this.#reconcile(key);
        return requeueAfterMs === undefined ? undefined : { requeueAfterMs };
      },
      log: opts.log,
      metrics: opts.controllerMetrics,
      queue: new WorkQueue({ name: `clustercachedresources:${opts.shard}`, metrics: opts.queueMetrics }),
    });
  }

  /** start subscribes to the CCR informer and starts the workers. */
  start(): void {
    const enqueue = (obj: KubeObject): void => {
      this.#controller.enqueue(ccrKey(this.#opts.ccrs.clusterOf(obj), obj.metadata.name ?? ''));
      // A CCR going away may hand its resource to a younger Duplicate: look at its siblings again.
      if (obj.metadata.deletionTimestamp !== undefined) this.#enqueueSiblings(obj);
    };
    const enqueueGone = (obj: KubeObject): void => {
      enqueue(obj);
      this.#enqueueSiblings(obj);
    };
    // Adds before the informer has synced, or replayed while the handler is registered, are its first list.
    let registering = true;
    const added = (obj: KubeObject): void => {
      if (registering || !this.#opts.ccrs.hasSynced()) this.#initialSync.firstListed(ccrKey(this.#opts.ccrs.clusterOf(obj), obj.metadata.name ?? ''));
      enqueue(obj);
    };
    // A CCR being deleted goes through its phases one status write at a time, each one's echo
    // bringing the next step: there every update counts.
    const updated = (obj: KubeObject, old: KubeObject): void => {
      if (obj.metadata.deletionTimestamp !== undefined || !isStatusOnlyChange(obj, old)) enqueue(obj);
    };
    this.#removeHandler = this.#opts.ccrs.addHandler({ add: added, update: updated, delete: enqueueGone });
    registering = false;
    this.#controller.start();
  }

  /** #claimedElsewhere: another live CCR of the spec's cluster names the spec's resource (same schema). */
  #claimedElsewhere(key: string, spec: ReplicationSpec): boolean {
    const schema = schemaOf(spec.gvr);
    for (const obj of this.#opts.ccrs.list()) {
      const cluster = this.#opts.ccrs.clusterOf(obj);
      if (cluster !== spec.cluster || obj.metadata.deletionTimestamp !== undefined) continue;
      const other = readCcr(cluster, obj);
      if (ccrKey(cluster, other.name) !== key && schemaOf(other.gvr) === schema) return true;
    }
    return false;
  }

  #enqueueSiblings(obj: KubeObject): void {
    const cluster = this.#opts.ccrs.clusterOf(obj);
    for (const sibling of this.#opts.ccrs.list()) {
      if (this.#opts.ccrs.clusterOf(sibling) === cluster) this.#controller.enqueue(ccrKey(cluster, sibling.metadata.name ?? ''));
    }
  }

  /** stop stops the workers, then every child; its metric series go. */
  async stop(): Promise<void> {
    this.#removeHandler?.();
    await this.#controller.stop();
    await this.#children.stopAll();
    this.#opts.queueMetrics?.removeSeries(this.#controller.queue.name);
    this.#opts.controllerMetrics?.removeSeries(this.#controller.name);
  }

  /**
   * hasSynced tells whether the first sync is done: the CCR informer listed, and every CCR of that
   * first list has a synced child or cannot replicate (see initial-sync.ts). It stays true after.
   */
  hasSynced(): boolean {
    return this.#initialSync.done();
  }

  async #reconcile(key: string): Promise<number | undefined> {
    const { cluster, name } = splitCcrKey(key);
    const stored = this.#opts.ccrs.get(cluster, '', name);
    if (!stored) {
      // Gone without our finalizer flow (e.g. force-removed): stop replicating and drop its copies.
      await this.#children.remove(key, { purge: true });
      return undefined;
    }
    return reconcileCcr({
      key,
      shard: this.#opts.shard,
      client: this.#opts.client,
      resolve: this.#opts.resolve,
      children: this.#children,
      purger: this.#opts.purger,
      others: () => [...this.#opts.ccrs.list()].filter((obj) => this.#opts.ccrs.clusterOf(obj) === cluster),
      onCountsChanged: () => this.#controller.enqueueAfter(key, COUNTS_DELAY_MS),
      log: this.#opts.log,
      now: this.#opts.now ?? (() => new Date()),
    }, cluster, stored);
  }
}
