// Commits a store's checked writes to a durable backend, then waits until the store's feed has
// applied them, so the caller reads its own write from the store as soon as the call returns.
// Each write is conditional on the version the store checked against (create: absent; update and
// delete: the stored resourceVersion), which makes the backend, not this process's view, the
// judge of conflicts: a view that was behind gets StaleView, and the store checks again once the
// feed has brought the key up to date.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { AppError } from '../errors.js';
import type { Backend, BackendOp } from '../storage/backend.js';
import type { Committer, PlannedWrite } from './committer.js';
import type { ObjectKey } from './store.js';
import { StaleView } from './committer.js';
import { AppliedWaiters } from './applied-waiters.js';
import { encodeStoredValue, withVersion } from './stored-value.js';
import type { DecodedValue } from './stored-value.js';
import { storageKey } from './storage-key.js';

/**
 * OwnWrite is a write this process sent, kept until the feed brings it back: the feed applies the
 * planned object instead of parsing the value (value '' marks a delete).
 */
interface OwnWrite {
  readonly value: string;
  readonly planned: KubeObject;
  readonly bytes: number;
}

/** BackendCommitterOptions: feedWaitMs bounds the wait for the feed after a durable commit. */
export interface BackendCommitterOptions {
  readonly backend: Backend;
  readonly space: string;
  /** held is the object the store holds for a key now. */
  readonly held: (key: ObjectKey) => KubeObject | undefined;
  readonly feedWaitMs?: number;
}

/** BackendCommitter is the Committer of a store over a backend; the store's feed reports to it. */
export class BackendCommitter implements Committer {
  readonly waiters = new AppliedWaiters();
  private readonly backend: Backend;
  private readonly space: string;
  private readonly held: (key: ObjectKey) => KubeObject | undefined;
  private readonly feedWaitMs: number;
  private readonly own = new Map<string, OwnWrite>();

  constructor(opts: BackendCommitterOptions) {
    this.backend = opts.backend;
    this.space = opts.space;
    this.held = opts.held;
    this.feedWaitMs = opts.feedWaitMs ?? 10_000;
  }

  /** persist commits one write and resolves once the store has applied it; see Committer. */
  async persist(write: PlannedWrite): Promise<KubeObject> {
    const key = storageKey(this.space, write.key);
    const op = this.operation(key, write);
    this.own.set(key, { value: op.kind === 'delete' ? '' : op.value, planned: write.object, bytes: write.bytes });
    const result = await this.backend.commit(op).catch((err: unknown) => {
      this.own.delete(key);
      throw unavailable(err);
    });
    if (!result.ok) {
      this.own.delete(key);
      // The backend holds another version than the one checked. Unless the feed has brought it
      // already (the winner of a race is often applied before the loser hears back), wait for it;
      // then the store checks again.
      if (!this.holds(write.key, result.current)) await this.waiters.keyChange(key, this.feedWaitMs);
      throw new StaleView(`the object was changed meanwhile: ${write.key.name}`);
    }
    // A durable write is the answer even if the feed is slow to bring it back. The writer gets
    // the very object the store holds once it is applied (unless a later write replaced it).
    await this.waiters.revision(result.revision, this.feedWaitMs);
    const held = this.held(write.key);
    if (held?.metadata.resourceVersion === String(result.revision)) return held;
    return withVersion(write.object, result.revision, write.bytes).object;
  }

  /**
   * ownValue is the planned object of a change the feed brings back, when this process wrote it
   * (the value is compared, so a later write by someone else is never mistaken for it).
   */
  ownValue(key: string, value: string, revision: number): DecodedValue | undefined {
    const own = this.own.get(key);
    if (own === undefined || own.value !== value) return undefined;
    this.own.delete(key);
    return withVersion(own.planned, revision, own.bytes);
  }

  /** holds tells whether the store has applied the backend's current version of key (0: absent). */
  private holds(key: ObjectKey, current: number): boolean {
    const held = Number(this.held(key)?.metadata.resourceVersion ?? 0);
    return current === 0 ? held === 0 : held >= current;
  }

  private operation(key: string, write: PlannedWrite): BackendOp {
    const expected = Number(write.previous?.metadata.resourceVersion ?? 0);
    if (write.type === 'ADDED') return { kind: 'create', key, value: encodeStoredValue(write.object) };
    if (write.type === 'DELETED') return { kind: 'delete', key, expected };
    return { kind: 'update', key, value: encodeStoredValue(write.object), expected };
  }
}

/**
 * unavailable is a failed commit as the client sees it: 503 with Retry-After, since a backend that
 * cannot be reached now may be back in a moment. As with kube-apiserver over etcd, a write that
 * timed out may still be committed later: the message does not claim it was not.
 */
function unavailable(err: unknown): AppError {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof AppError && err.code !== 'ServiceUnavailable') return err;
  return new AppError('ServiceUnavailable', `the storage backend did not acknowledge the write (${message}); retry it`, { retryAfterSeconds: 1 }, { cause: err });
}
