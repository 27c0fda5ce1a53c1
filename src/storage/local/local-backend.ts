// The local backend: one SQLite file in a data directory, owned by this process alone, through
// the built-in node:sqlite. Writes are group-committed (one transaction per turn of the event
// loop), reads run straight on the connection, and the change feeds are in-process: the only
// writer is this object, so it knows every change the moment it commits. With fsync on, a
// committed batch is published (its revision, the recent changes, the feeds) and acknowledged only
// once the WAL is synced (wal-sync.ts), so nothing is seen or acknowledged before it is durable.

import { Buffer } from 'node:buffer';
import type { DatabaseSync } from 'node:sqlite';
import { AppError } from '../../errors.js';
import { readEach } from '../backend.js';
import type { Backend, BackendHealth, BackendList, BackendOp, EntryReader, Feed, FeedHandlers, OpResult, StoredEntry } from '../backend.js';
import { applyBatch } from './batch-transaction.js';
import type { AppliedBatch } from './batch-transaction.js';
import { GroupCommit } from './group-commit.js';
import type { BatchStats } from './group-commit.js';
import { KvTable } from './kv-table.js';
import { LocalFeeds } from './local-feeds.js';
import { RecentChanges } from './recent-changes.js';
import { openDatabase } from './sqlite-schema.js';
import { WalSync, fileSyncer } from './wal-sync.js';
import type { WalSyncer } from './wal-sync.js';

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
  /** walSyncer makes the WAL at the given path durable (default: fdatasync on libuv's thread pool); for tests. */
  readonly walSyncer?: (walPath: string) => WalSyncer;
}

// The recent changes only bridge a feed opened a moment after the list it follows (a feed from
// older than they reach is told `compacted` and its store lists again), so they are kept small:
// every value in them is a copy of an object the process also holds decoded.
const DEFAULTS = { maxBatchOps: 512, maxBatchBytes: 4 * 1024 * 1024, recentChanges: 1_000, recentChangesChars: 4 * 1024 * 1024 };

/** openLocalBackend opens (or creates) the backend in opts.dataDir; it throws StorageOpenError when the directory cannot be used. */
export async function openLocalBackend(opts: LocalBackendOptions): Promise<LocalBackend> {
  const opened = openDatabase(opts.dataDir);
  return new LocalBackend(opened.db, opened.path, opened.revision, opts);
}

/** LocalBackend is the Backend over one SQLite file; build it with openLocalBackend. */
export class LocalBackend implements Backend {
  readonly kind = 'local' as const;
  private readonly table: KvTable;
  private readonly writes: GroupCommit<BackendOp, Promise<OpResult>>;
  private readonly recent: RecentChanges;
  private readonly feeds = new LocalFeeds();
  /** wal syncs committed batches before they are published; undefined with fsync off. */
  private readonly wal: WalSync | undefined;
  /** revision is the last published revision; committed the last one in the file. */
  private revision: number;
  private committed: number;
  private failure: string | undefined;
  /** unsynced is why the backend stopped: a WAL sync failed, so what SQLite holds may be ahead of what was published. */
  private unsynced: string | undefined;
  private closed = false;

  constructor(
    private readonly db: DatabaseSync,
    /** path is the database file, for messages. */
    readonly path: string,
    revision: number,
    opts: LocalBackendOptions,
  ) {
    this.revision = revision;
    this.committed = revision;
    this.table = new KvTable(db);
    this.wal = opts.fsync === false ? undefined : new WalSync((opts.walSyncer ?? fileSyncer)(`${path}-wal`));
    this.recent = new RecentChanges(
      {
        maxChanges: opts.recentChanges ?? DEFAULTS.recentChanges,
        maxChars: opts.recentChangesChars ?? DEFAULTS.recentChangesChars,
      },
      revision,
    );
    const limits = { maxItems: opts.maxBatchOps ?? DEFAULTS.maxBatchOps, maxBytes: opts.maxBatchBytes ?? DEFAULTS.maxBatchBytes };
    this.writes = new GroupCommit((ops) => this.commitBatch(ops), limits, opts.onBatch);
  }

  async commit(op: BackendOp): Promise<OpResult> {
    if (this.closed) throw closedError();
    if (this.unsynced !== undefined) throw new AppError('ServiceUnavailable', this.unsynced);
    const bytes = Buffer.byteLength(op.key) + (op.kind === 'delete' ? 0 : Buffer.byteLength(op.value));
    return await this.writes.submit(op, bytes);
  }

  list(prefix: string): Promise<BackendList>;
  list<T>(prefix: string, read: EntryReader<T>): Promise<BackendList<T>>;
  async list<T>(prefix: string, read?: EntryReader<T>): Promise<BackendList<T | StoredEntry>> {
    this.assertOpen();
    // Nothing commits while the list waits for the batches committed so far to be published, and
    // while it reads: the rows and the published revision then describe the same moment.
    this.writes.hold();
    try {
      await this.wal?.settled();
      if (this.unsynced !== undefined) throw new AppError('ServiceUnavailable', this.unsynced);
      return this.readList(prefix, read);
    } finally {
      this.writes.release();
    }
  }

  /** readList reads the rows under prefix, a page at a time, and the revision, in one synchronous run. */
  private readList<T>(prefix: string, read: EntryReader<T> | undefined): BackendList<T | StoredEntry> {
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
    await this.wal?.settled();
    await this.wal?.close();
    this.feeds.stopAll();
    this.db.close();
  }

  /**
   * commitBatch commits a batch and answers each op once the batch is published: at once with
   * fsync off, else once a WAL sync that started after the COMMIT has finished. Syncs finish in
   * order, so batches are published in the order they committed.
   */
  private commitBatch(ops: readonly BackendOp[]): Promise<OpResult>[] {
    if (this.unsynced !== undefined) throw new AppError('ServiceUnavailable', this.unsynced);
    let applied: AppliedBatch;
    try {
      applied = applyBatch(this.db, this.table, ops, this.committed);
    } catch (err) {
      throw this.storageFailure(err);
    }
    this.failure = undefined;
    this.committed = applied.revision;
    if (this.wal === undefined) {
      this.publish(applied);
      return applied.results.map((result) => Promise.resolve(result));
    }
    const published = this.wal.sync().then(
      () => {
        if (this.unsynced !== undefined) throw new AppError('ServiceUnavailable', this.unsynced);
        this.publish(applied);
        return applied.results;
      },
      (err: unknown) => {
        // What SQLite holds may now be ahead of what was published: no later batch may be published
        // past this one, and nothing more is accepted. A restart reads the file again.
        this.unsynced = `local: the write-ahead log could not be synced to disk (${err instanceof Error ? err.message : String(err)}); restart cachegate`;
        this.failure = this.unsynced;
        throw new AppError('ServiceUnavailable', this.unsynced, {}, { cause: err });
      },
    );
    return applied.results.map((_, i) => published.then((results) => results[i] as OpResult));
  }

  /** publish makes a durable batch visible: the revision, the recent changes, the feeds. */
  private publish(applied: AppliedBatch): void {
    this.revision = applied.revision;
    if (applied.changes.length > 0) {
      this.recent.append(applied.changes);
      this.feeds.deliver(applied.changes);
    }
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
