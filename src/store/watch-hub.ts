// Fan-out of committed changes to the watchers of their resource type. The registry is keyed by
// resource table, so a write visits only the watchers of its own (group, resource).

import type { KubeObject } from '../apimachinery/object-meta.js';
import type { ChangeType } from './event-window.js';
import type { ClusterTable, ResourceTable } from './object-table.js';
import type { Watcher } from './watcher.js';

interface PendingChange {
  readonly rv: number;
  readonly type: ChangeType;
  readonly object: KubeObject;
  readonly previous: KubeObject | undefined;
  readonly source: ClusterTable;
}

/** WatchHub holds the watchers of every resource type and delivers changes in version order. */
export class WatchHub {
  private readonly watchers = new Map<ResourceTable, Set<Watcher>>();
  private readonly pending: PendingChange[] = [];
  private delivering = false;

  /** add registers a watcher on a resource type. */
  add(table: ResourceTable, watcher: Watcher): void {
    let set = this.watchers.get(table);
    if (set === undefined) {
      set = new Set();
      this.watchers.set(table, set);
    }
    set.add(watcher);
  }

  /** remove unregisters a watcher; the empty registry of a resource type is dropped. */
  remove(table: ResourceTable, watcher: Watcher): void {
    const set = this.watchers.get(table);
    if (set?.delete(watcher) && set.size === 0) this.watchers.delete(table);
  }

  /** count is the number of watchers on a resource type. */
  count(table: ResourceTable): number {
    return this.watchers.get(table)?.size ?? 0;
  }

  /**
   * publish delivers a committed change synchronously. A change committed by a listener while a
   * delivery runs (listeners must not, but might) is queued behind it, so every watcher still
   * sees versions in order.
   */
  publish(rv: number, type: ChangeType, object: KubeObject, previous: KubeObject | undefined, source: ClusterTable): void {
    if (this.delivering) {
      this.pending.push({ rv, type, object, previous, source });
      return;
    }
    this.delivering = true;
    try {
      this.deliver(rv, type, object, previous, source);
      for (let i = 0; i < this.pending.length; i++) {
        const change = this.pending[i] as PendingChange;
        this.deliver(change.rv, change.type, change.object, change.previous, change.source);
      }
    } finally {
      this.pending.length = 0;
      this.delivering = false;
    }
  }

  private deliver(rv: number, type: ChangeType, object: KubeObject, previous: KubeObject | undefined, source: ClusterTable): void {
    const set = this.watchers.get(source.resource);
    if (set === undefined) return;
    for (const watcher of set) watcher.offer(rv, type, object, previous, source.cluster);
  }
}
