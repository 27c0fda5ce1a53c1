// The local backend: one SQLite file in a data directory, owned by this process alone, through
// the built-in node:sqlite. Writes are group-committed (one transaction per turn of the event
// loop), reads run straight on the connection, and the change feeds are in-process: the only
// writer is this object, so it knows every change the moment it commits.

import { Buffer } from 'node:buffer';
import type { DatabaseSync } from 'node:sqlite';
import { AppError } from '../../errors.js';
import { readEach } from '../backend.js';
import type { Backend, BackendHealth, BackendList, BackendOp, EntryReader, Feed, FeedHandlers, OpResult, StoredEntry } from '../backend.js';
import { applyBatch } from './batch-transaction.js';
import { GroupCommit } from './group-commit.js';
import type { BatchStats } from './group-commit.js';
import { KvTable } from './kv-table.js';
import { LocalFeeds } from './local-feeds.js';
import { RecentChanges } from './recent-changes.js';
import { openDatabase } from './sqlite-schema.js';

/** LocalBackendOptions configure openLocalBackend. */
export interface LocalBackendOptions {
  /** dataDir holds cachegate.db; it is created (with its parents) when missing. */
  readonly dataDir: string;
  /** fsync true (the default) syncs every commit to disk (power-loss safe); false survives a process crash only. */
  readonly fsync?: boolean;
  /** maxBatchOps bounds the ops of one group-commit transaction (default 512). */
  readonly maxBatchOps?: number;
  /** maxBatchBytes bounds the UTF-8 bytes of keys and values in one transaction (default 4 MiB). */
  readonly maxBatchBytes?: number;
  /** recentChanges is how many recent changes a feed can be resumed through (default 1,000). */
  readonly recentChanges?: number;
  /** recentChangesChars bounds the characters of keys and values those changes hold (default 4 Mi). */
  readonly recentChangesChars?: number;
  /** onBatch is told about every committed batch (its op count, bytes and how long it held the event loop). */
  readonly onBatch?: (stats: BatchStats) => void;
}

// The recent changes only bridge a feed opened a moment after the list it follows (a feed from
// older than they reach is told `compacted` and its store lists again), so they are kept small:
// every value in them is a copy of an object the process also holds decoded.
const DEFAULTS = { maxBatchOps: 512, maxBatchBytes: 4 * 1024 * 1024, recentChanges: 1_000, recentChangesChars: 4 * 1024 * 1024 };

/** openLocalBackend opens (or creates) the backend in opts.dataDir; it throws StorageOpenError when the directory cannot be used. */
export async function openLocalBackend(opts: LocalBackendOptions): Promise<LocalBackend> {
  const opened = openDatabase(opts.dataDir, opts.fsync ?? true);
  return new LocalBackend(opened.db, opened.path, opened.revision, opts);
}

/** LocalBackend is the Backend over one SQLite file; build it with openLocalBackend. */
export class LocalBackend implements Backend {
  readonly kind = 'local' as const;
  private readonly table: KvTable;
  private readonly writes: GroupCommit<BackendOp, OpResult>;
  private readonly recent: RecentChanges;
  private readonly feeds = new LocalFeeds();
  private revision: number;
  private failure: string | undefined;
  private closed = false;

  constructor(
    private readonly db: DatabaseSync,
    /** path is the database file, for messages. */
    readonly path: string,
    revision: number,
    opts: LocalBackendOptions,
  ) {
    this.revision = revision;
    this.table = new KvTable(db);
    this.recent = new RecentChanges(
      {
        maxChanges: opts.recentChanges ?? DEFAULTS.recentChanges,
        maxChars: opts.recentChangesChars ?? DEFAULTS.recentChangesChars,
      },
      revision,
    );
    const limits = { maxItems: opts.maxBatchOps ?? DEFAULTS.maxBatchOps, maxBytes: opts.maxBatchBytes ?? DEFAULTS.maxBatchBytes };
    this.writes = new GroupCommit((ops) => this.applyCommitted(ops), limits, opts.onBatch);
  }

  commit(op: BackendOp): Promise<OpResult> {
    if (this.closed) return Promise.reject(closedError());
    const bytes = Buffer.byteLength(op.key) + (op.kind === 'delete' ? 0 : Buffer.byteLength(op.value));
    return this.writes.submit(op, bytes);
  }

  list(prefix: string): Promise<BackendList>;
  list<T>(prefix: string, read: EntryReader<T>): Promise<BackendList<T>>;
  async list<T>(prefix: string, read?: EntryReader<T>): Promise<BackendList<T | StoredEntry>> {
    this.assertOpen();
    // The rows and the revision must describe one moment: no batch commits until the list has
    // read its last page. Between pages the event loop turns, so a large key space loading at
    // start does not keep the process from everything else it has begun (its sources' lists).
    const release = this.writes.hold();
    try {
      const entries: (T | StoredEntry)[] = [];
      const pages = this.table.pagesUnder(prefix);
      for (;;) {
        let page: IteratorResult<StoredEntry[]>;
        try {
          page = pages.next();
        } catch (err) {
          throw this.storageFailure(err);
        }
        if (page.done) return { revision: this.revision, entries };
        if (read === undefined) entries.push(...page.value);
        else readEach(page.value, read, entries);
        await new Promise<void>((resolve) => setImmediate(resolve));
        this.assertOpen();
      }
    } finally {
      release();
    }
  }

  watch(prefix: string, afterRevision: number, handlers: FeedHandlers): Feed {
    this.assertOpen();
    return this.feeds.open(prefix, afterRevision, handlers, this.recent);
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.revision;
  }

  health(): BackendHealth {
    if (this.closed) return { ok: false, message: 'local: closed' };
    return this.failure === undefined ? { ok: true } : { ok: false, message: this.failure };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writes.drained();
    this.feeds.stopAll();
    this.db.close();
  }

  /** applyCommitted commits a batch, then hands its changes to the window and the feeds before any commit resolves. */
  private applyCommitted(ops: readonly BackendOp[]): OpResult[] {
    let applied;
    try {
      applied = applyBatch(this.db, this.table, ops, this.revision);
    } catch (err) {
      throw this.storageFailure(err);
    }
    this.failure = undefined;
    this.revision = applied.revision;
    if (applied.changes.length > 0) {
      this.recent.append(applied.changes);
      this.feeds.deliver(applied.changes);
    }
    return applied.results;
  }

  /** storageFailure records a failed disk operation in health() and turns it into the retryable error callers see. */
  private storageFailure(err: unknown): AppError {
    const message = `local: ${err instanceof Error ? err.message : String(err)}`;
    this.failure = message;
    return new AppError('ServiceUnavailable', message, {}, { cause: err });
  }

  private assertOpen(): void {
    if (this.closed) throw closedError();
  }
}

function closedError(): AppError {
  return new AppError('ServiceUnavailable', 'local: the backend is closed');
}
