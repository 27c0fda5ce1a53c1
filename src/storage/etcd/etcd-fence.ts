// Fencing of a key space on etcd: the writes under a prefix are allowed to one holder at a time,
// and each of them is a transaction that also compares the holder's fence, a key and the create
// revision it had when the holder created it. The key is tied to the holder's lease: once the
// lease is gone (expired while the holder was paused, or revoked), so is the key, and no write the
// old holder sends afterwards can hold, even one it sends before it learns that it lost.

import { AppError } from '../../errors.js';

/** EtcdFence is a holder's proof: its key and that key's create revision. */
export interface EtcdFence {
  readonly key: Buffer;
  readonly createRevision: number;
}

/** EtcdFencing names the fenced key space (a backend key prefix) and its holder's fence now (undefined: this process holds none). */
export interface EtcdFencing {
  readonly prefix: string;
  current(): EtcdFence | undefined;
}

/** notHolding is the error of a write under a fenced prefix by a process that does not hold the fence. */
export function notHolding(prefix: string): AppError {
  return new AppError('ServiceUnavailable', `etcd: this replica does not lead, and only the leader writes under ${prefix}`, { retryAfterSeconds: 1 });
}
