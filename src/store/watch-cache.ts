// The watch cache: a store's objects with their indexes, its version, the event window that
// watches resume from, the watchers and the list snapshots. Every change is committed here in one
// synchronous step (table, version, window, watchers), either by the memory store itself or, for
// a store over a durable backend, from the backend's change feed with the backend's revision as
// the version. All state is per instance.

import { deepFreezeMeasured } from '../apimachinery/object-bytes.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { DEFAULT_EVENT_WINDOW_BYTES, EventWindow } from './event-window.js';
import type { ChangeType } from './event-window.js';
import { ListSnapshots } from './list-snapshots.js';
import { ObjectTable } from './object-table.js';
import type { ClusterTable } from './object-table.js';
import type { ObjectKey } from './store.js';
import type { WatchContext } from './watch-start.js';
import { WatchHub } from './watch-hub.js';
import { withResourceVersion } from './write-rules.js';

/** WatchCacheOptions bound the history a cache keeps; every field has a default. */
export interface WatchCacheOptions {
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
  /** onListenerError is told when a watch listener throws; that watch is stopped (default: ignore). */
  readonly onListenerError?: (error: unknown) => void;
}

/** AppliedChange is one committed change from a backend feed. */
export interface AppliedChange {
  readonly key: ObjectKey;
  readonly revision: number;
  /**
   * object is the stored state, frozen, with resourceVersion = revision; for a deletion, the
   * object's final state if known (else the stored one at the deletion's version). bytes is its
   * estimated size.
   */
  readonly object?: KubeObject;
  readonly bytes?: number;
  readonly deleted?: boolean;
}

/** WatchCache holds a store's current state and recent history. */
export class WatchCache {
  readonly table = new ObjectTable();
  readonly snapshots: ListSnapshots;
  private readonly hub = new WatchHub();
  private readonly window: EventWindow;
  private readonly onListenerError: (error: unknown) => void;
  private rv = 0;

  constructor(opts: WatchCacheOptions = {}) {
    this.onListenerError = opts.onListenerError ?? (() => undefined);
    this.window = new EventWindow({ maxEvents: opts.eventWindow ?? 100_000, maxBytes: opts.eventWindowBytes ?? DEFAULT_EVENT_WINDOW_BYTES });
    this.snapshots = new ListSnapshots({ ttlMs: opts.continueTtlMs ?? 5 * 60_000, max: opts.maxSnapshots ?? 1000, maxItems: opts.maxSnapshotItems ?? 10_000_000, now: opts.now ?? (() => new Date()) });
  }

  /** version is the cache's resourceVersion now. */
  get version(): number {
    return this.rv;
  }

  /** watchContext is what a starting watch reads. */
  watchContext(): WatchContext {
    return { table: this.table, window: this.window, hub: this.hub, currentRv: () => this.rv, onListenerError: this.onListenerError };
  }

  /** commit makes a checked write visible: table, version, event window, watchers; bytes is object's estimated size. */
  commit(cluster: ClusterTable, type: ChangeType, object: KubeObject, previous: KubeObject | undefined, bytes: number, rv = this.rv + 1): void {
    if (type === 'DELETED' && previous !== undefined) this.table.remove(cluster, previous);
    else this.table.put(cluster, object, previous);
    this.rv = rv;
    this.window.push(rv, type, object, previous, cluster, bytes);
    // A snapshot the window no longer covers could be the last holder of replaced versions.
    this.snapshots.expireBefore(this.window.oldestResumable());
    this.hub.publish(rv, type, object, previous, cluster);
  }

  /**
   * load fills an empty cache with objects read from a backend at one revision, without events:
   * watchers and the event window start from there.
   */
  load(objects: readonly AppliedChange[], revision: number): void {
    if (this.rv !== 0) throw new Error('load: the cache already holds state');
    const byTable = new Map<ClusterTable, KubeObject[]>();
    for (const change of objects) {
      if (change.object === undefined) continue;
      const table = this.clusterOf(change.key);
      const list = byTable.get(table);
      if (list === undefined) byTable.set(table, [change.object]);
      else list.push(change.object);
    }
    for (const [table, list] of byTable) this.table.putAll(table, list);
    this.rv = revision;
    this.window.restartAt(revision);
  }

  /**
   * applyChange applies one committed change from the backend's feed, in revision order. Several
   * changes may share a revision (one backend transaction, or the deletions a re-list found); a
   * revision below the current one was applied already and is ignored.
   */
  applyChange(change: AppliedChange): void {
    if (change.revision < this.rv) return;
    const cluster = this.clusterOf(change.key);
    const previous = cluster.get(change.key.namespace, change.key.name);
    if (change.deleted !== true && change.object !== undefined) {
      this.commit(cluster, previous === undefined ? 'ADDED' : 'MODIFIED', change.object, previous, change.bytes ?? 0, change.revision);
    } else if (change.deleted === true && previous !== undefined) {
      const final = change.object ?? withResourceVersion(previous, String(change.revision));
      this.commit(cluster, 'DELETED', final, previous, change.object === undefined ? deepFreezeMeasured(final) : (change.bytes ?? 0), change.revision);
    } else {
      this.rv = change.revision;
    }
  }

  /** advanceTo moves the version forward without a change (a feed's progress). */
  advanceTo(revision: number): void {
    if (revision > this.rv) this.rv = revision;
  }

  private clusterOf(key: ObjectKey): ClusterTable {
    return this.table.ensureResource(key.group, key.resource).ensureCluster(key.cluster);
  }
}
