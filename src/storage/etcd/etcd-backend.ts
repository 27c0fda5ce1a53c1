// The etcd backend: the Backend contract on etcd v3, whose model it is. A commit is a transaction
// guarded by the key's create or mod revision (commits that arrive together share one, see
// etcd-batcher.ts); a list is a paged range pinned to one
// revision; a feed is a watch that resumes by itself; a compactor keeps one interval of history.
// Every call has a deadline, so a cluster without quorum makes calls fail with
// ServiceUnavailable instead of hanging, and health() says so.

import type { Etcd3 } from 'etcd3';
import { AppError } from '../../errors.js';
import type { Backend, BackendHealth, BackendList, BackendOp, EntryReader, Feed, FeedHandlers, OpResult, StoredEntry, ThreadHeap } from '../backend.js';
import { EtcdBatcher } from './etcd-batcher.js';
import { EtcdCaller } from './etcd-caller.js';
import { openEtcdClient } from './etcd-client.js';
import { EtcdClientThread } from './etcd-client-thread.js';
import type { EtcdBackendOptions } from './etcd-backend-options.js';
import { EtcdCompactor } from './etcd-compactor.js';
import type { CompactionStatus } from './etcd-compactor.js';
import { EtcdFeed } from './etcd-feed.js';
import { notHolding } from './etcd-fence.js';
import type { EtcdFence, EtcdFencing } from './etcd-fence.js';
import { DEFAULT_ETCD_PREFIX, EtcdKeyspace } from './etcd-keyspace.js';
import { listPrefix } from './etcd-list.js';
import { Reachability } from './etcd-reachability.js';
import { barrierTransaction, groupTransaction, singleTransaction } from './etcd-transaction.js';

const DEFAULT_DIAL_TIMEOUT_MS = 5_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_COMPACT_INTERVAL_MS = 5 * 60_000;
const PROBE_INTERVAL_MS = 2_000;


/** openEtcdBackend connects to etcd; a cluster that does not answer yet is reported by health(), not thrown. */
export async function openEtcdBackend(options: EtcdBackendOptions): Promise<EtcdBackend> {
  const client = await openEtcdClient({ endpoints: options.endpoints, ...(options.tls === undefined ? {} : { tls: options.tls }) });
  let thread: EtcdClientThread | undefined;
  if (options.clientThread === true) {
    const { compactIntervalMs: _compaction, clientThread: _thread, ...threadOptions } = options;
    try {
      thread = await EtcdClientThread.start(threadOptions);
    } catch (err) {
      client.close();
      throw err;
    }
  }
  const backend = new EtcdBackend(client, options, thread);
  await backend.probe();
  return backend;
}

/** EtcdBackend implements Backend on an etcd v3 cluster. */
export class EtcdBackend implements Backend {
  readonly kind = 'etcd';
  /** client is the etcd3 client, shared with the feeds and the compactor (and open to code that needs etcd beyond Backend). */
  readonly client: Etcd3;
  /** keyspace maps the backend's keys to etcd's under the prefix. */
  readonly keyspace: EtcdKeyspace;
  /** reachability is what calls and the probe last saw, read by health(). */
  readonly reachability: Reachability;
  /** caller runs every unary call with a deadline and the retries it allows. */
  readonly caller: EtcdCaller;
  private readonly dialTimeoutMs: number;
  private readonly compactor: EtcdCompactor | undefined;
  private readonly probeTimer: NodeJS.Timeout;
  private probing: Promise<void> | undefined;
  private readonly feeds = new Set<Feed>();
  private readonly batcher = new EtcdBatcher((op, fence) => this.commitAlone(op, fence), (ops, fence) => this.commitGroup(ops, fence));
  private fencing: EtcdFencing | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;

  constructor(client: Etcd3, options: EtcdBackendOptions, private readonly thread?: EtcdClientThread) {
    this.client = client;
    this.keyspace = new EtcdKeyspace(options.prefix ?? DEFAULT_ETCD_PREFIX);
    this.reachability = new Reachability(options.endpoints);
    this.caller = new EtcdCaller({ requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS }, this.reachability);
    this.dialTimeoutMs = options.dialTimeoutMs ?? DEFAULT_DIAL_TIMEOUT_MS;
    const compactIntervalMs = options.compactIntervalMs ?? DEFAULT_COMPACT_INTERVAL_MS;
    this.compactor = compactIntervalMs > 0 ? new EtcdCompactor(this, compactIntervalMs) : undefined;
    this.probeTimer = setInterval(() => void this.probe(), PROBE_INTERVAL_MS);
    this.probeTimer.unref();
  }

  commit(op: BackendOp): Promise<OpResult> {
    return this.track(async () => {
      if (this.keyspace.isReserved(op.key)) throw new AppError('Invalid', `etcd: the key ${op.key} is reserved for the backend`);
      const fence = this.fenceFor(op.key);
      if (this.thread !== undefined) return this.thread.commit(op, fence, this.fencing?.prefix ?? '');
      return this.batcher.submit(op, fence);
    });
  }

  /**
   * fence makes every later commit under fencing.prefix a transaction behind the holder's fence,
   * and refuses such commits while this process holds none (see etcd-fence.ts).
   */
  fence(fencing: EtcdFencing): void {
    this.fencing = fencing;
  }

  private fenceFor(key: string): EtcdFence | undefined {
    const fencing = this.fencing;
    if (fencing === undefined || !key.startsWith(fencing.prefix)) return undefined;
    const fence = fencing.current();
    if (fence === undefined) throw notHolding(fencing.prefix);
    return fence;
  }

  /** commitAlone sends one commit as its own transaction. */
  private async commitAlone(op: BackendOp, fence: EtcdFence | undefined): Promise<OpResult> {
    const response = await this.caller.write('commit', (options) => this.client.kv.txn(singleTransaction(this.keyspace, op, fence), options));
    const revision = Number(response.header.revision);
    if (response.succeeded) return { ok: true, revision };
    if (fence !== undefined) {
      const held = response.responses[1]?.response_range.kvs[0]?.create_revision;
      if (Number(held ?? 0) !== fence.createRevision) throw notHolding(this.fencing?.prefix ?? '');
    }
    const current = response.responses[0]?.response_range.kvs[0]?.mod_revision ?? 0;
    return { ok: false, current: Number(current), revision };
  }

  /** commitGroup sends commits on distinct keys as one transaction: its revision, or undefined if a condition failed. */
  private async commitGroup(ops: readonly BackendOp[], fence: EtcdFence | undefined): Promise<number | undefined> {
    const response = await this.caller.write('commit', (options) => this.client.kv.txn(groupTransaction(this.keyspace, ops, fence), options));
    return response.succeeded ? Number(response.header.revision) : undefined;
  }

  list(prefix: string): Promise<BackendList>;
  list<T>(prefix: string, read: EntryReader<T>): Promise<BackendList<T>>;
  list<T>(prefix: string, read?: EntryReader<T>): Promise<BackendList<T | StoredEntry>> {
    const reader: EntryReader<T | StoredEntry> = read ?? ((entry) => entry);
    return this.track(() => this.thread?.list(prefix, reader) ?? listPrefix(this, prefix, reader));
  }

  watch(prefix: string, afterRevision: number, handlers: FeedHandlers): Feed {
    const feed = this.thread === undefined
      ? new EtcdFeed(this, prefix, afterRevision, handlers, (ended) => this.feeds.delete(ended))
      : this.threadFeed(this.thread, prefix, afterRevision, handlers);
    if (this.closing !== undefined) void feed.stop();
    else this.feeds.add(feed);
    return feed;
  }

  /** threadFeed is a feed the client thread runs (a barrier there moves it). */
  private threadFeed(thread: EtcdClientThread, prefix: string, afterRevision: number, handlers: FeedHandlers): Feed {
    const running = thread.watch(prefix, afterRevision, {
      ...handlers,
      compacted: () => {
        this.feeds.delete(feed);
        handlers.compacted();
      },
    });
    const feed: Feed = {
      stop: async () => {
        this.feeds.delete(feed);
        await running.stop();
      },
    };
    return feed;
  }

  currentRevision(): Promise<number> {
    return this.track(() => this.thread?.currentRevision() ?? this.readRevision());
  }

  /**
   * barrier puts the progress key of every feed that hears progress, in one transaction, and
   * resolves with its revision. A watch delivers in revision order, so each such feed reports that
   * revision only after every earlier change of its prefix. etcd's own progress notifications would
   * do this without a write, but before 3.4.25 and 3.5.8 one can overtake the events it covers
   * (a known etcd bug, fixed in those releases), and Debian ships 3.4.23: a write is right on every version.
   */
  barrier(): Promise<number> {
    // With a client thread, every feed runs there, and so does the barrier that moves them.
    if (this.thread !== undefined) return this.track(() => (this.thread as EtcdClientThread).barrier());
    return this.track(async () => {
      const keys = new Set<string>();
      for (const feed of this.feeds) {
        const key = feed instanceof EtcdFeed ? feed.progressKey() : undefined;
        if (key !== undefined) keys.add(key);
      }
      if (keys.size === 0) return this.readRevision();
      const response = await this.caller.write('progress barrier', (options) => this.client.kv.txn(barrierTransaction(this.keyspace, keys), options));
      return Number(response.header.revision);
    });
  }

  health(): BackendHealth {
    const here = this.reachability.health();
    return here.ok && this.thread !== undefined ? this.thread.health() : here;
  }

  async threadHeap(): Promise<ThreadHeap | undefined> {
    return this.thread?.heap();
  }

  /** compaction is the compactor's status; revision 0 when compaction is disabled or has not happened yet. */
  compaction(): CompactionStatus {
    return this.compactor?.status() ?? { revision: 0 };
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  /** probe asks etcd for its revision (a linearizable read: it needs a quorum), so health() stays current between calls. */
  async probe(): Promise<void> {
    this.probing ??= this.readRevision(this.dialTimeoutMs)
      .then(() => undefined, () => undefined)
      .finally(() => (this.probing = undefined));
    await this.probing;
  }

  private async readRevision(budgetMs?: number): Promise<number> {
    const key = this.keyspace.compactKey();
    const response = await this.caller.read('read of the revision', (options) => this.client.kv.range({ key, count_only: true }, options), budgetMs);
    return Number(response.header.revision);
  }

  /** track refuses calls once close() began and lets close() wait for the ones in flight. */
  private track<T>(call: () => Promise<T>): Promise<T> {
    if (this.closing !== undefined) return Promise.reject(new AppError('ServiceUnavailable', 'etcd: the backend is closed'));
    const running = call();
    this.pending.add(running);
    running.then(() => this.pending.delete(running), () => this.pending.delete(running));
    return running;
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.probeTimer);
    await Promise.allSettled([...this.pending]);
    await Promise.all([...this.feeds].map((feed) => feed.stop()));
    await this.compactor?.stop();
    await this.probing;
    await this.thread?.close();
    this.client.close();
  }
}
