// The most recent committed events, kept so a watch can resume from a resourceVersion. Versions
// never decrease but need not be consecutive: a store over a durable backend shares one revision
// counter with other key spaces, so its own events skip the versions written elsewhere; and the
// objects written in one backend transaction share its revision (a group). The window knows the
// version after which it holds every event (`coveredAfter`): a watch from any version at or above
// it can be resumed, from anything older it cannot. A watch resumed from a version that is a group
// of several events gets the whole group again: a client cut off in the middle of a group knows
// only that version, and duplicates are harmless to a client that applies events by key.
//
// The window is bounded twice, oldest events evicted first: by event count, and by the estimated
// bytes of the objects its events carry. The count alone does not bound memory: a 3 MB object
// patched a thousand times is a thousand 3 MB versions. An event's objects are shared with the
// table while they are current, so the window's own cost is the versions it keeps alive after
// they were replaced. Counting each event's object approximates that: a version is counted once,
// by the event that wrote it; what is not counted is, per object, the version before its oldest
// retained event (kept as that event's `previous`, needed to replay selector transitions), at most
// one extra version per object in the window.
//
// Fields live in parallel arrays instead of one record per event, which halves the per-event cost
// and keeps the per-event size a plain number, not an allocation. Evicted slots are cleared at
// once (so their objects can be collected) and the arrays are compacted when half of them is dead.

import { getHeapStatistics } from 'node:v8';
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

/** EventWindowLimits bound a window; whichever is reached first evicts the oldest events. */
export interface EventWindowLimits {
  /** maxEvents is the most events kept (0 keeps none). */
  readonly maxEvents: number;
  /** maxBytes is the most estimated object bytes kept; the newest event is kept even when it alone is larger. */
  readonly maxBytes: number;
}

/**
 * DEFAULT_EVENT_WINDOW_BYTES is an eighth of this process's V8 heap limit: an app has two windows
 * (the embedded source's and the cache's), so history takes at most a quarter of the heap, and the
 * rest is left to what cannot be shed, the current objects and the requests in flight. At the
 * default 4 GiB heap that is 512 MiB per window, more than 100 000 events of ordinary objects: the
 * count bound still applies first to them, the byte bound to large objects changed often.
 */
export const DEFAULT_EVENT_WINDOW_BYTES = Math.floor(getHeapStatistics().heap_size_limit / 8);

/** COMPACT_AFTER: dead slots at the front are cut off once there are this many and they are half the arrays. */
const COMPACT_AFTER = 1024;

/** EventWindow is a queue of the most recent committed events, bounded by count and by bytes. */
export class EventWindow {
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly types: ChangeType[] = [];
  private readonly objects: (KubeObject | undefined)[] = [];
  private readonly previous: (KubeObject | undefined)[] = [];
  private readonly sources: (ClusterTable | undefined)[] = [];
  private readonly sizes: number[] = [];
  private readonly versions: number[] = [];
  /** head is the array slot of the oldest retained event; slots before it are dead. */
  private head = 0;
  /** coveredAfter: every event with a greater version is retained. */
  private coveredAfter = 0;
  /** brokenGroup: the version of a group whose oldest events were evicted and newest kept (-1: none). */
  private brokenGroup = -1;
  private heldBytes = 0;

  constructor(limits: EventWindowLimits) {
    this.maxEvents = Math.max(0, Math.floor(limits.maxEvents));
    this.maxBytes = Math.max(0, limits.maxBytes);
  }

  /** size is the number of retained events. */
  get size(): number {
    return this.types.length - this.head;
  }

  /** bytes is the estimated bytes of the retained events' objects. */
  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * restartAt empties the window and makes it cover the events after version rv: a store that
   * loads its state at a version cannot replay what came before it.
   */
  restartAt(rv: number): void {
    while (this.size > 0) this.dropOldest();
    this.compact();
    this.coveredAfter = rv;
  }

  /**
   * push records the event of version rv, which must not be less than the newest retained event's;
   * bytes is the estimated size of object. Then the oldest events go until both bounds hold.
   */
  push(rv: number, type: ChangeType, object: KubeObject, previous: KubeObject | undefined, source: ClusterTable, bytes: number): void {
    this.versions.push(rv);
    this.types.push(type);
    this.objects.push(object);
    this.previous.push(previous);
    this.sources.push(source);
    this.sizes.push(bytes);
    this.heldBytes += bytes;
    while (this.size > this.maxEvents) this.dropOldest();
    while (this.size > 1 && this.heldBytes > this.maxBytes) this.dropOldest();
    this.compact();
  }

  /** canResumeFrom tells whether every event after rv (and every event of rv's group) is still retained. */
  canResumeFrom(rv: number): boolean {
    return rv > this.coveredAfter || (rv === this.coveredAfter && rv !== this.brokenGroup);
  }

  /**
   * resumeAfter is the version to replay after for a watch resumed from rv: rv itself, or the
   * version before it when rv names a retained group of several events, so the group is sent whole.
   */
  resumeAfter(rv: number): number {
    const slot = this.firstSlotAfter(rv);
    const last = slot - 1;
    const groupOfSeveral = last > this.head && this.versions[last] === rv && this.versions[last - 1] === rv;
    return groupOfSeveral ? rv - 1 : rv;
  }

  /** oldestResumable is the oldest resourceVersion a watch can still resume from. */
  oldestResumable(): number {
    return this.coveredAfter;
  }

  /** forEachAfter visits the retained events with a version greater than rv, oldest first. */
  forEachAfter(rv: number, visit: ChangeVisitor): void {
    const end = this.types.length;
    for (let slot = this.firstSlotAfter(rv); slot < end; slot++) {
      visit(this.versions[slot] as number, this.types[slot] as ChangeType, this.objects[slot] as KubeObject, this.previous[slot], this.sources[slot] as ClusterTable);
    }
  }

  /** firstSlotAfter is the slot of the oldest retained event with a version greater than rv (binary search). */
  private firstSlotAfter(rv: number): number {
    let low = this.head;
    let high = this.versions.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.versions[mid] as number) <= rv) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private dropOldest(): void {
    const slot = this.head;
    this.heldBytes -= this.sizes[slot] ?? 0;
    this.objects[slot] = undefined;
    this.previous[slot] = undefined;
    this.sources[slot] = undefined;
    const version = this.versions[slot] as number;
    this.coveredAfter = version;
    this.head++;
    this.brokenGroup = this.head < this.versions.length && this.versions[this.head] === version ? version : -1;
  }

  /** compact cuts the dead slots off the front once they are many; amortised O(1) per event. */
  private compact(): void {
    const length = this.types.length;
    if (this.head === 0 || (this.head < length && (this.head < COMPACT_AFTER || this.head * 2 < length))) return;
    for (const column of [this.types, this.objects, this.previous, this.sources, this.sizes, this.versions] as unknown[][]) column.splice(0, this.head);
    this.head = 0;
  }
}
