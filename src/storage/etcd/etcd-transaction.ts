// Commits as etcd transactions, each behind its fence when the key space is fenced
// (etcd-fence.ts). One commit alone is one transaction guarded by its key's create or mod
// revision, whose else branch reads the key so a refusal says its revision atomically. Commits
// that arrive together go out as one transaction guarded by all their conditions: etcd then gives
// them one revision, and a round trip (about 250 µs of this process's CPU in the gRPC client, and
// as much of etcd's) is paid once for the group instead of once per object.

import type { ITxnRequest } from 'etcd3';
import type { BackendOp } from '../backend.js';
import type { EtcdFence } from './etcd-fence.js';
import type { EtcdKeyspace } from './etcd-keyspace.js';

/** TxnCompare and TxnOp are the parts of a transaction request. */
type TxnCompare = NonNullable<ITxnRequest['compare']>[number];
type TxnOp = NonNullable<ITxnRequest['success']>[number];

/** FENCE_COMPARISONS is what a fence adds to a transaction's comparisons. */
export const FENCE_COMPARISONS = 1;

/** comparisonsOf is how many comparisons op's guard brings to a transaction (see guardOf). */
export function comparisonsOf(op: BackendOp): number {
  return op.kind === 'create' ? 1 : 2;
}

/** guardOf is what must hold for op: the key absent (create), or present at the expected revision. */
function guardOf(key: Buffer, op: BackendOp): TxnCompare[] {
  if (op.kind === 'create') return [{ key, target: 'Create', result: 'Equal', create_revision: 0 }];
  // The key must exist: etcd compares an absent key's mod revision as 0.
  return [
    { key, target: 'Mod', result: 'Equal', mod_revision: op.expected },
    { key, target: 'Create', result: 'Greater', create_revision: 0 },
  ];
}

function writeOf(key: Buffer, op: BackendOp): TxnOp {
  return op.kind === 'delete' ? { request_delete_range: { key } } : { request_put: { key, value: Buffer.from(op.value) } };
}

/** fenceOf holds while the fence's key still has the create revision it had when its holder got it. */
function fenceOf(fence: EtcdFence): TxnCompare {
  return { key: fence.key, target: 'Create', result: 'Equal', create_revision: fence.createRevision };
}

/** singleTransaction is op alone (behind fence, if any); its else branch reads the key, then the fence's key. */
export function singleTransaction(keyspace: EtcdKeyspace, op: BackendOp, fence?: EtcdFence): ITxnRequest {
  const key = keyspace.etcdKey(op.key);
  const failure: TxnOp[] = [{ request_range: { key, keys_only: true } }];
  if (fence === undefined) return { compare: guardOf(key, op), success: [writeOf(key, op)], failure };
  failure.push({ request_range: { key: fence.key, keys_only: true } });
  return { compare: [fenceOf(fence), ...guardOf(key, op)], success: [writeOf(key, op)], failure };
}

/** groupTransaction is several ops on distinct keys (behind one fence, if any), applied together only if every guard holds. */
export function groupTransaction(keyspace: EtcdKeyspace, ops: readonly BackendOp[], fence?: EtcdFence): ITxnRequest {
  const compare: TxnCompare[] = fence === undefined ? [] : [fenceOf(fence)];
  const success: TxnOp[] = [];
  for (const op of ops) {
    const key = keyspace.etcdKey(op.key);
    compare.push(...guardOf(key, op));
    success.push(writeOf(key, op));
  }
  return { compare, success, failure: [] };
}

/** barrierTransaction puts an empty value at each key, unconditionally, in one revision. */
export function barrierTransaction(keyspace: EtcdKeyspace, keys: Iterable<string>): ITxnRequest {
  const success: TxnOp[] = [];
  for (const key of keys) success.push({ request_put: { key: keyspace.etcdKey(key), value: Buffer.alloc(0) } });
  return { compare: [], success, failure: [] };
}
