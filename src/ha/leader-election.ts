// Leader election among the replicas that share one etcd, on etcd's own primitives (the recipe of
// etcd's Go concurrency package): each replica holds a lease of ha.leaseSeconds, kept alive while
// it runs, and a candidate key `<prefix>/ha/leader/<lease>` bound to it; the candidate created
// first leads. A replica that dies stops renewing and its key goes with its lease; one that stops
// cleanly revokes it, so the next candidate leads at once. Candidates follow the key space through
// the backend's own feed (which resumes across broken streams) and look again at every change.
//
// The leader's fence is its key and that key's create revision: a transaction that compares it
// holds only while this very candidacy exists, so a leader paused past its lease (its key gone,
// another leading) cannot commit, even before it learns that it lost.

import type { Lease } from 'etcd3';
import type { Feed } from '../storage/backend.js';
import type { EtcdBackend } from '../storage/etcd/etcd-backend.js';
import type { EtcdFence } from '../storage/etcd/etcd-fence.js';

/** CANDIDATES is where the candidates' keys live, under the backend's prefix. */
export const CANDIDATES = '/ha/leader/';
const RETRY_MS = 1_000;

/** Leadership is what this replica knows of the election now. */
export interface Leadership {
  readonly leading: boolean;
  /** leader is the leading replica's identity, when one is known. */
  readonly leader: string | undefined;
  /** fence guards this replica's writes while it leads. */
  readonly fence: EtcdFence | undefined;
}

/** ElectionBackend is what an election needs from the etcd backend. */
export type ElectionBackend = Pick<EtcdBackend, 'client' | 'keyspace' | 'watch' | 'currentRevision'>;

/** LeaderElectionOptions: onChange hears every change of leadership (and of the known leader). */
export interface LeaderElectionOptions {
  readonly backend: ElectionBackend;
  readonly identity: string;
  readonly leaseSeconds: number;
  readonly onChange: (leadership: Leadership) => void;
  readonly onError: (err: unknown) => void;
}

const FOLLOWING: Leadership = Object.freeze({ leading: false, leader: undefined, fence: undefined });

/** LeaderElection campaigns for this replica until stopped. */
export class LeaderElection {
  readonly #opts: LeaderElectionOptions;
  #state: Leadership = FOLLOWING;
  #lease: Lease | undefined;
  #candidate: Buffer | undefined;
  #feed: Feed | undefined;
  #retry: NodeJS.Timeout | undefined;
  #recheck: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;
  #checkAgain = false;
  #stopped = false;

  constructor(opts: LeaderElectionOptions) {
    this.#opts = opts;
  }

  /** leadership is the state now, without a round trip. */
  get leadership(): Leadership {
    return this.#state;
  }

  /** start begins the campaign; the result arrives through onChange. */
  start(): void {
    void this.#campaign();
  }

  /** stop resigns: the lease is revoked, so another replica leads without waiting for it to expire. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    clearTimeout(this.#recheck);
    await this.#feed?.stop();
    const lease = this.#lease;
    this.#lease = undefined;
    this.#set(FOLLOWING);
    await lease?.revoke().catch(() => undefined);
  }

  async #campaign(): Promise<void> {
    if (this.#stopped) return;
    const { client, keyspace } = this.#opts.backend;
    const lease = client.lease(this.#opts.leaseSeconds);
    this.#lease = lease;
    lease.on('lost', (err) => this.#lost(lease, err));
    try {
      const id = await lease.grant();
      const key = keyspace.etcdKey(`${CANDIDATES}${id}`);
      const put = await client.if(key, 'Create', '==', 0).then(client.put(key).value(this.#opts.identity).lease(id)).commit();
      if (this.#lease !== lease) return;
      this.#candidate = key;
      this.#follow(Number(put.header.revision));
      await this.#check();
    } catch (err) {
      if (this.#lease === lease) this.#lost(lease, err);
    }
  }

  /** #follow watches the candidates from revision on; a compacted watch starts over from now. */
  #follow(revision: number): void {
    const lease = this.#lease;
    this.#feed = this.#opts.backend.watch(CANDIDATES, revision, {
      changes: () => void this.#check(),
      compacted: () => {
        if (this.#stopped) return;
        // The candidacy may end meanwhile (#lost stops the feed): its replacement follows on its own.
        void this.#opts.backend.currentRevision().then((now) => {
          if (!this.#stopped && lease === this.#lease) this.#follow(now);
        }, (err: unknown) => this.#opts.onError(err));
        void this.#check();
      },
    });
  }

  /** #check reads the first candidate; checks never overlap, and a change meanwhile checks again. */
  #check(): Promise<void> {
    if (this.#checking !== undefined) {
      this.#checkAgain = true;
      return this.#checking;
    }
    this.#checking = this.#readFirst()
      .catch((err: unknown) => {
        this.#opts.onError(err);
        this.#checkLater();
      })
      .finally(() => {
        this.#checking = undefined;
        if (this.#checkAgain) {
          this.#checkAgain = false;
          void this.#check();
        }
      });
    return this.#checking;
  }

  /**
   * #checkLater reads again after a failed read: the candidates may not change again, and a replica
   * whose key came first must still learn that it leads (seen when etcd calls failed under load).
   */
  #checkLater(): void {
    if (this.#stopped || this.#recheck !== undefined) return;
    this.#recheck = setTimeout(() => {
      this.#recheck = undefined;
      void this.#check();
    }, RETRY_MS);
    this.#recheck.unref();
  }

  async #readFirst(): Promise<void> {
    const { client, keyspace } = this.#opts.backend;
    const lease = this.#lease;
    const first = await client.getAll().prefix(keyspace.etcdKey(CANDIDATES)).sort('Create', 'Ascend').limit(1).exec();
    if (this.#stopped || lease !== this.#lease) return;
    const kv = first.kvs[0];
    if (kv === undefined) {
      this.#set(FOLLOWING);
      return;
    }
    const leader = kv.value.toString();
    const mine = this.#candidate !== undefined && kv.key.equals(this.#candidate);
    this.#set(mine ? { leading: true, leader, fence: { key: kv.key, createRevision: Number(kv.create_revision) } } : { leading: false, leader, fence: undefined });
  }

  #lost(lease: Lease, err: unknown): void {
    if (lease !== this.#lease) return;
    this.#lease = undefined;
    this.#candidate = undefined;
    void this.#feed?.stop();
    this.#feed = undefined;
    this.#set(FOLLOWING);
    this.#opts.onError(err);
    if (this.#stopped) return;
    this.#retry = setTimeout(() => void this.#campaign(), RETRY_MS);
    this.#retry.unref();
  }

  #set(next: Leadership): void {
    const now = this.#state;
    if (now.leading === next.leading && now.leader === next.leader && now.fence?.createRevision === next.fence?.createRevision) return;
    this.#state = next;
    this.#opts.onChange(next);
  }
}
