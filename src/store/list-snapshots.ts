// Consistent paging. The first paged call of a list keeps the whole sorted result (an array of
// references to frozen objects, so it is cheap) and later pages slice it: pages are complete and
// duplicate-free however the store changes in between, and all report the first page's version.
// The continue token only names the snapshot and an offset; the snapshot's list options are
// checked against the caller's so a token cannot be replayed against a different list.
//
// What a snapshot costs is bounded three ways (a token whose snapshot is gone answers 410 Expired
// and the client lists again, as with kube):
// - bytes: a snapshot holds no object of its own while the store's event window still reaches
//   back to its resourceVersion. Each object in it is then either still current (held by the
//   table) or was replaced after that version, by an event the window retains with the replaced
//   version as its `previous`. Once the window moves past the version, the snapshot would be the
//   last holder of replaced versions (under churn, a thousand snapshots of a large object are a
//   thousand copies), so it expires then: expireBefore, called by the store after each write. This
//   is kube's rule too, where a continue token expires once etcd compacts past its revision.
// - references: snapshots of an unchanged index bucket share one array; under churn each holds
//   its own, so the references held across distinct arrays are bounded (maxItems).
// - count and age: at most max snapshots, each for ttlMs; the oldest go first.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { firstInOrder } from './first-in-order.js';
import { badContinue, expiredContinue } from './store-errors.js';
import type { ListResult } from './store.js';

type Compare = (a: KubeObject, b: KubeObject) => number;

interface Snapshot {
  readonly items: readonly KubeObject[];
  /** sortLater: items are not in list order yet; the first later page sorts them (in place: the array is the snapshot's own). */
  sortLater?: Compare;
  readonly resourceVersion: string;
  /** version is resourceVersion as a number, for expireBefore. */
  readonly version: number;
  readonly fingerprint: string;
  readonly expiresAt: number;
}

interface ContinueToken {
  readonly s: number;
  readonly o: number;
}

/** ListSnapshotsOptions bound how long and how many snapshots are kept. */
export interface ListSnapshotsOptions {
  readonly ttlMs: number;
  readonly max: number;
  /** maxItems bounds the object references held by distinct snapshot arrays (one larger list is still kept alone). */
  readonly maxItems: number;
  readonly now: () => Date;
}

/** ListSnapshots keeps the snapshots behind outstanding continue tokens. */
export class ListSnapshots {
  private readonly snapshots = new Map<number, Snapshot>();
  /** holders counts the snapshots per distinct items array; heldItems sums those arrays' lengths. */
  private readonly holders = new Map<readonly KubeObject[], number>();
  private heldItems = 0;
  /** oldestVersion is at most the version of every kept snapshot, so most writes skip expireBefore's scan. */
  private oldestVersion = Number.POSITIVE_INFINITY;
  private readonly opts: ListSnapshotsOptions;
  private nextId = 1;

  constructor(opts: ListSnapshotsOptions) {
    this.opts = opts;
  }

  /** size is the number of snapshots kept. */
  get size(): number {
    return this.snapshots.size;
  }

  /**
   * start serves the first page of a result in list order; a snapshot is kept only if more pages
   * remain. Given sortLater, items are not in list order yet (an array the caller gives up): the
   * first page is picked without sorting them all (see first-in-order.ts), and the sort happens if
   * and when a later page is asked for.
   */
  start(items: readonly KubeObject[], resourceVersion: string, fingerprint: string, limit: number, sortLater?: Compare): ListResult {
    if (limit <= 0 || items.length <= limit) return { items: sortLater === undefined ? items : (items as KubeObject[]).sort(sortLater), resourceVersion };
    const now = this.opts.now().getTime();
    this.evict(now, items);
    const id = this.nextId++;
    const version = Number(resourceVersion);
    const snapshot: Snapshot = { items, resourceVersion, version, fingerprint, expiresAt: now + this.opts.ttlMs, ...(sortLater === undefined ? {} : { sortLater }) };
    this.snapshots.set(id, snapshot);
    this.oldestVersion = Math.min(this.oldestVersion, version);
    this.hold(items, 1);
    return this.page(id, snapshot, 0, limit);
  }

  /** resume serves the page a continue token points at. */
  resume(token: string, fingerprint: string, limit: number): ListResult {
    const { s: id, o: offset } = decodeToken(token);
    const snapshot = this.snapshots.get(id);
    if (snapshot === undefined || snapshot.expiresAt <= this.opts.now().getTime()) {
      this.drop(id);
      throw expiredContinue();
    }
    if (snapshot.fingerprint !== fingerprint) throw badContinue('the list options differ from the first page');
    if (offset > snapshot.items.length) throw badContinue('offset is out of range');
    return this.page(id, snapshot, offset, limit);
  }

  /**
   * expireBefore drops the snapshots taken before version: the oldest version the store's event
   * window can still replay from. Snapshots are kept in the order they were taken, so the scan
   * stops at the first one that stays.
   */
  expireBefore(version: number): void {
    if (this.oldestVersion >= version) return;
    this.oldestVersion = Number.POSITIVE_INFINITY;
    for (const [id, snapshot] of this.snapshots) {
      if (snapshot.version >= version) {
        this.oldestVersion = snapshot.version;
        return;
      }
      this.drop(id);
    }
  }

  private page(id: number, snapshot: Snapshot, offset: number, limit: number): ListResult {
    const end = limit > 0 ? Math.min(offset + limit, snapshot.items.length) : snapshot.items.length;
    const items = this.inOrder(snapshot, offset, end);
    const remaining = snapshot.items.length - end;
    if (remaining === 0) {
      // The last page was served; nothing can continue from here.
      this.drop(id);
      return { items, resourceVersion: snapshot.resourceVersion };
    }
    return { items, resourceVersion: snapshot.resourceVersion, continue: encodeToken({ s: id, o: end }), remainingItemCount: remaining };
  }

  /** inOrder is items[offset, end) of the snapshot in list order. */
  private inOrder(snapshot: Snapshot, offset: number, end: number): KubeObject[] {
    const compare = snapshot.sortLater;
    if (compare === undefined) return snapshot.items.slice(offset, end);
    if (offset === 0) return firstInOrder(snapshot.items, end, compare);
    (snapshot.items as KubeObject[]).sort(compare);
    delete snapshot.sortLater;
    return snapshot.items.slice(offset, end);
  }

  /** evict drops expired snapshots and then the oldest ones until there is room for one more holding incoming. */
  private evict(now: number, incoming: readonly KubeObject[]): void {
    // Insertion order is creation order, and every snapshot lives equally long.
    for (const [id, snapshot] of this.snapshots) {
      const added = this.holders.has(incoming) ? 0 : incoming.length;
      const fits = this.snapshots.size < Math.max(1, this.opts.max) && this.heldItems + added <= this.opts.maxItems;
      if (snapshot.expiresAt > now && fits) break;
      this.drop(id);
    }
  }

  private drop(id: number): void {
    const snapshot = this.snapshots.get(id);
    if (snapshot === undefined) return;
    this.snapshots.delete(id);
    this.hold(snapshot.items, -1);
  }

  /** hold counts one more (or one fewer) snapshot holding items; an array's references count while any holds it. */
  private hold(items: readonly KubeObject[], change: 1 | -1): void {
    const before = this.holders.get(items) ?? 0;
    const after = before + change;
    if (after === 0) {
      this.holders.delete(items);
      this.heldItems -= items.length;
      return;
    }
    this.holders.set(items, after);
    if (before === 0) this.heldItems += items.length;
  }
}

function encodeToken(token: ContinueToken): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

function decodeToken(token: string): ContinueToken {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw badContinue('not base64url');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badContinue('not a continue token');
  }
  const { s, o } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (!isCount(s) || !isCount(o)) throw badContinue('not a continue token');
  return { s, o };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
