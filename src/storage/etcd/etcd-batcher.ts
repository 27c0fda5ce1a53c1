// Gathers commits into groups for one etcd transaction each. At most MAX_IN_FLIGHT transactions
// are outstanding: commits that arrive meanwhile wait and go out together when one returns. A
// transaction costs this process and etcd about 0.4 ms of CPU each however few keys it carries,
// so under load (2,000 copy writes a second) this turns ~2.5 commits per transaction into ~10,
// halving the CPU per write, while a lone commit still leaves at once. A group holds distinct
// keys (etcd refuses a transaction that touches a key twice), behind one fence or none, at most
// MAX_TXN_COMPARES comparisons (etcd's --max-txn-ops, 128 by default, bounds them: a create
// brings one, an update or delete two, a fence one) and about MAX_GROUP_BYTES of values (under
// etcd's 1.5 MiB request limit). A group whose transaction is refused (one of its conditions
// failed) is committed again one by one, so each commit gets its own answer; the others still
// succeed.

import type { BackendOp, OpResult } from '../backend.js';
import type { EtcdFence } from './etcd-fence.js';
import { FENCE_COMPARISONS, comparisonsOf } from './etcd-transaction.js';

const MAX_TXN_COMPARES = 128;
const MAX_IN_FLIGHT = 2;
const MAX_GROUP_BYTES = 1024 * 1024;

/** Pending is one commit waiting for its group. */
interface Pending {
  readonly op: BackendOp;
  readonly fence: EtcdFence | undefined;
  readonly resolve: (result: OpResult) => void;
  readonly reject: (err: unknown) => void;
}

/** GroupCommitter sends a group (behind fence, if any) as one transaction: the revision if it held, undefined if a condition failed. */
export type GroupCommitter = (ops: readonly BackendOp[], fence: EtcdFence | undefined) => Promise<number | undefined>;

/** SingleCommitter sends one commit alone (behind fence, if any). */
export type SingleCommitter = (op: BackendOp, fence: EtcdFence | undefined) => Promise<OpResult>;

/** EtcdBatcher queues commits and sends them in groups. */
export class EtcdBatcher {
  private queue: Pending[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(private readonly single: SingleCommitter, private readonly group: GroupCommitter) {}

  /** submit queues op, to be sent behind fence if given; it resolves with op's own result. */
  submit(op: BackendOp, fence?: EtcdFence): Promise<OpResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ op, fence, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= MAX_IN_FLIGHT) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0 && this.inFlight < MAX_IN_FLIGHT) {
      const members = nextGroup(this.queue);
      this.queue = this.queue.slice(members.length);
      this.inFlight++;
      void this.send(members).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async send(members: readonly Pending[]): Promise<void> {
    if (members.length === 1) {
      const [only] = members as [Pending];
      await this.single(only.op, only.fence).then(only.resolve, only.reject);
      return;
    }
    let revision: number | undefined;
    try {
      revision = await this.group(members.map((m) => m.op), members[0]?.fence);
    } catch (err) {
      for (const member of members) member.reject(err);
      return;
    }
    if (revision !== undefined) {
      for (const member of members) member.resolve({ ok: true, revision });
      return;
    }
    await Promise.all(members.map((m) => this.single(m.op, m.fence).then(m.resolve, m.reject)));
  }
}

/** nextGroup is the longest head of queued commits on distinct keys, behind one fence (or none), within the bounds. */
function nextGroup(queued: readonly Pending[]): Pending[] {
  const group: Pending[] = [];
  const keys = new Set<string>();
  let bytes = 0;
  let compares = queued[0]?.fence === undefined ? 0 : FENCE_COMPARISONS;
  for (const pending of queued) {
    const size = pending.op.kind === 'delete' ? 0 : pending.op.value.length;
    const cost = comparisonsOf(pending.op);
    const full = compares + cost > MAX_TXN_COMPARES || (group.length > 0 && bytes + size > MAX_GROUP_BYTES) || keys.has(pending.op.key)
      || (group.length > 0 && group[0]?.fence !== pending.fence);
    if (full) break;
    group.push(pending);
    keys.add(pending.op.key);
    bytes += size;
    compares += cost;
  }
  return group;
}
