// Short-lived records every replica sees: the overlay of recent writes, shared through etcd so a
// write made through one replica is read back through any other. Each record is a key of its own
// under one space, put with an etcd lease that expires by itself (records need no cleanup when
// the replica that wrote them dies). Leases are shared by the records of a few seconds: granting one
// per record would double the round trips of a write. Every replica lists the space and follows
// its feed, which hears barriers, so a consistent read waits for records as it waits for the cache.

import type { Change, Feed } from '../storage/backend.js';
import type { EtcdBackend } from '../storage/etcd/etcd-backend.js';
import { RevisionWaiters } from './revision-waiters.js';
import type { FeedProgress } from './consistent-reads.js';

/** SharedRecordsBackend is what the records need of the etcd backend. */
export type SharedRecordsBackend = Pick<EtcdBackend, 'client' | 'keyspace' | 'caller' | 'list' | 'watch'>;

/** SharedRecordsOptions name the space and the records' life. */
export interface SharedRecordsOptions {
  readonly backend: SharedRecordsBackend;
  /** space is the records' key prefix, '/<name>/'. */
  readonly space: string;
  /** ttlMs is how long a record must live at least; its lease expires at most LEASE_SHARING_S later. */
  readonly ttlMs: number;
  /** onRecord hears every record put, in revision order (replays after a relist included). */
  readonly onRecord: (key: string, value: string) => void;
  readonly onError?: (err: unknown) => void;
  readonly now?: () => number;
}

/** LEASE_SHARING_S: records written within these seconds share one lease. */
const LEASE_SHARING_S = 5;

/** SharedRecords publishes records under leases and follows everyone's. */
export class SharedRecords {
  readonly #opts: SharedRecordsOptions;
  readonly #now: () => number;
  readonly #waiters = new RevisionWaiters();
  /** revisions is the mod revision of each live record, so a removal takes only the record it saw. */
  readonly #revisions = new Map<string, number>();
  #lease: { readonly id: string; readonly until: number } | undefined;
  #granting: Promise<string> | undefined;
  #feed: Feed | undefined;
  #stopped = false;

  constructor(opts: SharedRecordsOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
  }

  /** position is how far the records' feed has applied etcd's revisions. */
  get position(): FeedProgress {
    return this.#waiters;
  }

  /** start reads every live record, then follows the space. */
  async start(): Promise<void> {
    const listed = await this.#opts.backend.list(this.#opts.space);
    for (const entry of listed.entries) this.#put(entry.key, entry.value, entry.modRevision);
    this.#waiters.applied(listed.revision);
    this.#follow(listed.revision);
  }

  /** stop ends the feed. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#feed?.stop();
  }

  /** publish puts a record (replacing the key's) and resolves with its revision once committed. */
  async publish(key: string, value: string): Promise<number> {
    const { client, keyspace, caller } = this.#opts.backend;
    const lease = await this.#leaseId();
    const put = { key: keyspace.etcdKey(this.#opts.space + key), value: Buffer.from(value), lease };
    const response = await caller.write('record put', (options) => client.kv.put(put, options));
    return Number(response.header.revision);
  }

  /** remove deletes a record if it is still the version this replica saw last (a newer one stays). */
  async remove(key: string): Promise<void> {
    const revision = this.#revisions.get(key);
    if (revision === undefined) return;
    const { client, keyspace, caller } = this.#opts.backend;
    const etcdKey = keyspace.etcdKey(this.#opts.space + key);
    await caller.write('record removal', (options) => client.kv.txn({
      compare: [{ key: etcdKey, target: 'Mod', result: 'Equal', mod_revision: revision }],
      success: [{ request_delete_range: { key: etcdKey } }],
      failure: [],
    }, options));
  }

  #follow(afterRevision: number): void {
    if (this.#stopped) return;
    this.#feed = this.#opts.backend.watch(this.#opts.space, afterRevision, {
      changes: (changes) => this.#apply(changes),
      progress: (revision) => this.#waiters.applied(revision),
      compacted: () => void this.start().catch((err: unknown) => this.#opts.onError?.(err)),
    });
  }

  #apply(changes: readonly Change[]): void {
    for (const change of changes) {
      if (change.type === 'delete') this.#revisions.delete(this.#relative(change.key));
      else this.#put(change.key, change.value ?? '', change.revision);
    }
    const last = changes.at(-1);
    if (last !== undefined) this.#waiters.applied(last.revision);
  }

  #put(backendKey: string, value: string, revision: number): void {
    const key = this.#relative(backendKey);
    this.#revisions.set(key, revision);
    try {
      this.#opts.onRecord(key, value);
    } catch (err) {
      this.#opts.onError?.(err);
    }
  }

  #relative(backendKey: string): string {
    return backendKey.slice(this.#opts.space.length);
  }

  // The lease of records written now: a shared one while it has LEASE_SHARING_S left over the TTL.
  async #leaseId(): Promise<string> {
    const lease = this.#lease;
    if (lease !== undefined && lease.until > this.#now()) return lease.id;
    this.#granting ??= this.#grant().finally(() => (this.#granting = undefined));
    return this.#granting;
  }

  async #grant(): Promise<string> {
    const { client, caller } = this.#opts.backend;
    const ttlSeconds = Math.ceil(this.#opts.ttlMs / 1000) + LEASE_SHARING_S;
    const granted = this.#now();
    const response = await caller.write('lease grant', (options) => client.leaseClient.leaseGrant({ TTL: ttlSeconds, ID: 0 }, options));
    this.#lease = { id: response.ID, until: granted + LEASE_SHARING_S * 1000 };
    return response.ID;
  }
}
