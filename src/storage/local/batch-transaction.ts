// One group-commit batch as one SQLite transaction. Each op's condition is checked inside the
// transaction, after the ops before it in the batch have been applied, so a batch behaves exactly
// as its ops would one after another. Every op that holds takes the next revision; the revision
// counter is written in the same transaction, so a revision is never handed out twice, even when
// the last write before a restart was a delete that left no row behind.

import type { DatabaseSync } from 'node:sqlite';
import type { BackendOp, Change, OpResult } from '../backend.js';
import type { KvTable } from './kv-table.js';

/** AppliedBatch is what a committed batch did: a result per op, and the changes in revision order. */
export interface AppliedBatch {
  readonly results: OpResult[];
  readonly changes: Change[];
  /** revision is the global revision after the batch. */
  readonly revision: number;
}

/**
 * applyBatch runs ops in one BEGIN IMMEDIATE … COMMIT, starting from revisionBefore. When SQLite
 * fails, the transaction is rolled back and the error is thrown: nothing of the batch happened.
 */
export function applyBatch(db: DatabaseSync, table: KvTable, ops: readonly BackendOp[], revisionBefore: number): AppliedBatch {
  const results: OpResult[] = [];
  const changes: Change[] = [];
  let revision = revisionBefore;
  db.exec('BEGIN IMMEDIATE');
  try {
    for (const op of ops) {
      const current = table.modRevisionOf(op.key);
      if (!conditionHolds(op, current)) {
        results.push({ ok: false, current, revision });
        continue;
      }
      revision++;
      write(table, op, revision);
      results.push({ ok: true, revision });
      changes.push(changeOf(op, revision));
    }
    if (revision !== revisionBefore) table.persistRevision(revision);
    db.exec('COMMIT');
  } catch (err) {
    rollbackQuietly(db);
    throw err;
  }
  return { results, changes, revision };
}

/** conditionHolds: create needs the key absent; update and delete need it present at the expected revision. */
function conditionHolds(op: BackendOp, current: number): boolean {
  if (op.kind === 'create') return current === 0;
  return current !== 0 && current === op.expected;
}

function write(table: KvTable, op: BackendOp, revision: number): void {
  switch (op.kind) {
    case 'create':
      table.insert(op.key, op.value, revision);
      return;
    case 'update':
      table.update(op.key, op.value, revision);
      return;
    case 'delete':
      table.delete(op.key);
      return;
  }
}

function changeOf(op: BackendOp, revision: number): Change {
  if (op.kind === 'delete') return { type: 'delete', key: op.key, revision };
  return { type: 'put', key: op.key, value: op.value, revision };
}

function rollbackQuietly(db: DatabaseSync): void {
  try {
    // SQLite rolls some failures back by itself (a full disk, an I/O error): only roll back what is still open.
    if (db.isTransaction) db.exec('ROLLBACK');
  } catch {
    // the failure that got here is the one to report
  }
}
