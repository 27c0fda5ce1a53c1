// Keeps a store's memory in step with its backend: list the store's key space at one revision,
// load it, then follow the change feed from that revision, applying each change in order. When
// the feed cannot resume (its revision was compacted away while it was cut off), list again and
// apply the differences as changes, so watchers see what changed, then follow a new feed.

import type { Backend, Change, Feed } from '../storage/backend.js';
import type { BackendCommitter } from './backend-committer.js';
import type { AppliedChange, WatchCache } from './watch-cache.js';
import { parseStorageKey, spacePrefix, storageKey } from './storage-key.js';
import { SharedValues } from '../apimachinery/shared-values.js';
import { decodeStoredValue } from './stored-value.js';
import type { DecodedValue } from './stored-value.js';

/** StoreFeedOptions: onSkipped hears of a value that is not an object (foreign or damaged data). */
export interface StoreFeedOptions {
  readonly backend: Backend;
  readonly space: string;
  readonly cache: WatchCache;
  readonly committer: BackendCommitter;
  readonly onSkipped?: (key: string) => void;
  readonly onError?: (err: unknown) => void;
  /**
   * sharedValues keeps what decoded objects repeat once (see shared-values.ts). Given the table
   * the app's source clients use, a restarted copy and the original its source lists again share
   * their records, so telling them equal is mostly a comparison of references.
   */
  readonly sharedValues?: SharedValues;
}

/** StoreFeed loads a store from its backend and applies the backend's changes to it. */
export class StoreFeed {
  private readonly opts: StoreFeedOptions;
  private feed: Feed | undefined;
  private stopped = false;
  private readonly shared: SharedValues;

  constructor(opts: StoreFeedOptions) {
    this.opts = opts;
    this.shared = opts.sharedValues ?? new SharedValues();
  }

  /** start loads the store's key space and follows its changes; it resolves once loaded. */
  async start(): Promise<void> {
    const { backend, space, cache } = this.opts;
    // Each page is decoded while the backend reads the next one.
    const listed = await backend.list(spacePrefix(space), (entry) => this.decode(entry.key, entry.value, entry.modRevision));
    cache.load(listed.entries, listed.revision);
    this.opts.committer.waiters.appliedThrough(listed.revision);
    this.follow(listed.revision);
  }

  /** stop ends the feed; nothing is applied after it resolves. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.feed?.stop();
  }

  private follow(afterRevision: number): void {
    if (this.stopped) return;
    this.feed = this.opts.backend.watch(spacePrefix(this.opts.space), afterRevision, {
      changes: (changes) => this.apply(changes),
      compacted: () => void this.relist().catch((err: unknown) => this.opts.onError?.(err)),
      progress: (revision) => this.progress(revision),
    });
  }

  private apply(changes: readonly Change[]): void {
    const { cache, committer } = this.opts;
    let last = 0;
    for (const change of changes) {
      last = change.revision;
      const applied = change.type === 'delete' ? this.deletion(change) : this.decode(change.key, change.value ?? '', change.revision);
      if (applied === undefined) continue;
      cache.applyChange(applied);
      committer.waiters.changed(change.key);
    }
    if (last > 0) {
      cache.advanceTo(last);
      committer.waiters.appliedThrough(last);
    }
  }

  // Nothing of the space changed up to revision: the store is as current as that revision.
  private progress(revision: number): void {
    this.opts.cache.advanceTo(revision);
    this.opts.committer.waiters.appliedThrough(revision);
  }

  /** relist brings the store to the backend's state after a feed that could not resume. */
  private async relist(): Promise<void> {
    const { backend, space, cache, committer } = this.opts;
    const listed = await backend.list(spacePrefix(space));
    if (this.stopped) return;
    const present = new Set<string>();
    const changed = listed.entries.filter((entry) => {
      present.add(entry.key);
      return entry.modRevision > cache.version;
    });
    changed.sort((a, b) => a.modRevision - b.modRevision);
    this.apply(changed.map((entry) => ({ type: 'put', key: entry.key, value: entry.value, revision: entry.modRevision })));
    // Deletions missed while cut off carry the list's revision: the feed no longer knows theirs.
    for (const key of cache.table.keys()) {
      if (!present.has(storageKey(space, key))) cache.applyChange({ key, revision: listed.revision, deleted: true });
    }
    cache.advanceTo(listed.revision);
    committer.waiters.appliedThrough(listed.revision);
    this.follow(listed.revision);
  }

  private deletion(change: Change): AppliedChange | undefined {
    const key = parseStorageKey(this.opts.space, change.key);
    if (key === undefined) return undefined;
    // This process's own delete carries the final state it planned (e.g. its finalizers removed).
    const own = this.opts.committer.ownValue(change.key, '', change.revision);
    return { key, revision: change.revision, deleted: true, ...(own === undefined ? {} : { object: own.object, bytes: own.bytes }) };
  }

  private decode(storage: string, value: string, revision: number): AppliedChange | undefined {
    const key = parseStorageKey(this.opts.space, storage);
    const decoded: DecodedValue | undefined = key === undefined ? undefined : (this.opts.committer.ownValue(storage, value, revision) ?? decodeStoredValue(value, revision, this.shared));
    if (key === undefined || decoded === undefined) {
      this.opts.onSkipped?.(storage);
      return undefined;
    }
    return { key, revision, object: decoded.object, bytes: decoded.bytes };
  }
}
