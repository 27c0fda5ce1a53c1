// Gathers the commits that arrive in one turn of the event loop into groups for one etcd
// transaction each. A group holds distinct keys (etcd refuses a transaction that touches a key
// twice), at most MAX_GROUP_OPS commits (etcd's --max-txn-ops is 128 by default, and an update
// brings two comparisons) and about MAX_GROUP_BYTES of values (under etcd's 1.5 MiB request
// limit). A group whose transaction is refused (one of its conditions failed) is committed again
// one by one, so each commit gets its own answer; the others still succeed.

import type { BackendOp, OpResult } from '../backend.js';

const MAX_GROUP_OPS = 64;
const MAX_GROUP_BYTES = 1024 * 1024;

/** Pending is one commit waiting for its group. */
interface Pending {
  readonly op: BackendOp;
  readonly resolve: (result: OpResult) => void;
  readonly reject: (err: unknown) => void;
}

/** GroupCommitter sends a group as one transaction: the revision if it held, undefined if a condition failed. */
export type GroupCommitter = (ops: readonly BackendOp[]) => Promise<number | undefined>;

/** SingleCommitter sends one commit alone. */
export type SingleCommitter = (op: BackendOp) => Promise<OpResult>;

/** EtcdBatcher queues commits and sends them in groups. */
export class EtcdBatcher {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly single: SingleCommitter, private readonly group: GroupCommitter) {}

  /** submit queues op; it resolves with op's own result. */
  submit(op: BackendOp): Promise<OpResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const queued = this.queue;
    this.queue = [];
    for (const members of groupsOf(queued)) void this.send(members);
  }

  private async send(members: readonly Pending[]): Promise<void> {
    if (members.length === 1) {
      const [only] = members as [Pending];
      await this.single(only.op).then(only.resolve, only.reject);
      return;
    }
    let revision: number | undefined;
    try {
      revision = await this.group(members.map((m) => m.op));
    } catch (err) {
      for (const member of members) member.reject(err);
      return;
    }
    if (revision !== undefined) {
      for (const member of members) member.resolve({ ok: true, revision });
      return;
    }
    await Promise.all(members.map((m) => this.single(m.op).then(m.resolve, m.reject)));
  }
}

/** groupsOf splits queued commits, in order, into groups of distinct keys within the bounds. */
function groupsOf(queued: readonly Pending[]): Pending[][] {
  const groups: Pending[][] = [];
  let current: Pending[] = [];
  let keys = new Set<string>();
  let bytes = 0;
  for (const pending of queued) {
    const size = pending.op.kind === 'delete' ? 0 : pending.op.value.length;
    const full = current.length >= MAX_GROUP_OPS || (current.length > 0 && bytes + size > MAX_GROUP_BYTES) || keys.has(pending.op.key);
    if (full) {
      groups.push(current);
      current = [];
      keys = new Set();
      bytes = 0;
    }
    current.push(pending);
    keys.add(pending.op.key);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
