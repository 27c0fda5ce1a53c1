// Consistent paging. The first paged call of a list keeps the whole sorted result (an array of
// references to frozen objects, so it is cheap) and later pages slice it: pages are complete and
// duplicate-free however the store changes in between, and all report the first page's version.
// The continue token only names the snapshot and an offset; the snapshot's list options are
// checked against the caller's so a token cannot be replayed against a different list.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { badContinue, expiredContinue } from './store-errors.js';
import type { ListResult } from './store.js';

interface Snapshot {
  readonly items: readonly KubeObject[];
  readonly resourceVersion: string;
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
  readonly now: () => Date;
}

/** ListSnapshots keeps the snapshots behind outstanding continue tokens. */
export class ListSnapshots {
  private readonly snapshots = new Map<number, Snapshot>();
  private readonly opts: ListSnapshotsOptions;
  private nextId = 1;

  constructor(opts: ListSnapshotsOptions) {
    this.opts = opts;
  }

  /** size is the number of snapshots kept. */
  get size(): number {
    return this.snapshots.size;
  }

  /** start serves the first page of a sorted result; a snapshot is kept only if more pages remain. */
  start(items: readonly KubeObject[], resourceVersion: string, fingerprint: string, limit: number): ListResult {
    if (limit <= 0 || items.length <= limit) return { items, resourceVersion };
    const now = this.opts.now().getTime();
    this.evict(now);
    const id = this.nextId++;
    const snapshot = { items, resourceVersion, fingerprint, expiresAt: now + this.opts.ttlMs };
    this.snapshots.set(id, snapshot);
    return this.page(id, snapshot, 0, limit);
  }

  /** resume serves the page a continue token points at. */
  resume(token: string, fingerprint: string, limit: number): ListResult {
    const { s: id, o: offset } = decodeToken(token);
    const snapshot = this.snapshots.get(id);
    if (snapshot === undefined || snapshot.expiresAt <= this.opts.now().getTime()) {
      this.snapshots.delete(id);
      throw expiredContinue();
    }
    if (snapshot.fingerprint !== fingerprint) throw badContinue('the list options differ from the first page');
    if (offset > snapshot.items.length) throw badContinue('offset is out of range');
    return this.page(id, snapshot, offset, limit);
  }

  private page(id: number, snapshot: Snapshot, offset: number, limit: number): ListResult {
    const end = limit > 0 ? Math.min(offset + limit, snapshot.items.length) : snapshot.items.length;
    const items = snapshot.items.slice(offset, end);
    const remaining = snapshot.items.length - end;
    if (remaining === 0) {
      // The last page was served; nothing can continue from here.
      this.snapshots.delete(id);
      return { items, resourceVersion: snapshot.resourceVersion };
    }
    return { items, resourceVersion: snapshot.resourceVersion, continue: encodeToken({ s: id, o: end }), remainingItemCount: remaining };
  }

  /** evict drops expired snapshots and then the oldest ones until there is room for one more. */
  private evict(now: number): void {
    // Insertion order is creation order, and every snapshot lives equally long.
    for (const [id, snapshot] of this.snapshots) {
      if (snapshot.expiresAt > now && this.snapshots.size < Math.max(1, this.opts.max)) break;
      this.snapshots.delete(id);
    }
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
