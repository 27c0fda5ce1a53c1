// The last `capacity` committed events, kept so a watch can resume from a resourceVersion. Every
// committed write takes exactly the next resourceVersion and pushes exactly one event, so the
// versions in the window are consecutive and need not be stored: slot i holds version first + i.
// Fields live in parallel arrays instead of one record per event, which halves the per-event cost;
// the objects themselves are shared with the table, so the window mostly holds references.

import type { KubeObject } from '../apimachinery/object-meta.js';
import type { ClusterTable } from './object-table.js';
import type { WatchEventType } from './store.js';

/** ChangeType is the type of a committed change (a BOOKMARK is never stored). */
export type ChangeType = Exclude<WatchEventType, 'BOOKMARK'>;

/** ChangeVisitor receives one retained event; source names its cluster and resource type. */
export type ChangeVisitor = (
  rv: number,
  type: ChangeType,
  object: KubeObject,
  previous: KubeObject | undefined,
  source: ClusterTable,
) => void;

/** EventWindow is a ring buffer of the most recent committed events. */
export class EventWindow {
  private readonly capacity: number;
  private readonly types: ChangeType[] = [];
  private readonly objects: KubeObject[] = [];
  private readonly previous: (KubeObject | undefined)[] = [];
  private readonly sources: ClusterTable[] = [];
  /** head is the slot of the oldest retained event once the buffer has wrapped. */
  private head = 0;
  /** first is the resourceVersion of the oldest retained event (or the next one when empty). */
  private first = 1;
  private droppedAny = false;

  constructor(capacity: number) {
    this.capacity = Math.max(0, Math.floor(capacity));
  }

  /** push records the event of version rv, which must be the one after the newest retained event. */
  push(rv: number, type: ChangeType, object: KubeObject, previous: KubeObject | undefined, source: ClusterTable): void {
    if (this.capacity === 0) {
      this.first = rv + 1;
      this.droppedAny = true;
      return;
    }
    if (this.types.length < this.capacity) {
      // Still filling: arrays grow on demand so an idle store does not pay for the whole window.
      if (this.types.length === 0) this.first = rv;
      this.types.push(type);
      this.objects.push(object);
      this.previous.push(previous);
      this.sources.push(source);
      return;
    }
    const slot = this.head;
    this.types[slot] = type;
    this.objects[slot] = object;
    this.previous[slot] = previous;
    this.sources[slot] = source;
    this.head = (slot + 1) % this.capacity;
    this.first++;
    this.droppedAny = true;
  }

  /**
   * canResumeFrom tells whether every event after rv is still retained. Nothing was ever dropped →
   * always; otherwise rv must be at least the version just before the oldest retained event.
   */
  canResumeFrom(rv: number): boolean {
    return !this.droppedAny || rv >= this.first - 1;
  }

  /** oldestResumable is the oldest resourceVersion a watch can still resume from. */
  oldestResumable(): number {
    return this.first - 1;
  }

  /** forEachAfter visits the retained events with a version greater than rv, oldest first. */
  forEachAfter(rv: number, visit: ChangeVisitor): void {
    const size = this.types.length;
    const skip = Math.max(0, rv - this.first + 1);
    for (let i = skip; i < size; i++) {
      const slot = (this.head + i) % size;
      visit(this.first + i, this.types[slot] as ChangeType, this.objects[slot] as KubeObject, this.previous[slot], this.sources[slot] as ClusterTable);
    }
  }
}
