// The prepared statements over the kv and meta tables. Keys compare as SQLite's BINARY collation
// does, byte by byte in UTF-8, which is Unicode code point order (etcd orders its keys the same
// way), and a prefix is read as a range of the primary key so a list never scans the table.

import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { StoredEntry } from '../backend.js';

/** KvRow is a listed row as an array (key, value, mod_revision): cheaper to build than an object per row. */
type KvRow = readonly [string, string, number];

/** KvTable reads and writes keys and the persisted revision through statements prepared once. */
export class KvTable {
  private readonly selectModRevision: StatementSync;
  private readonly insertKey: StatementSync;
  private readonly updateKey: StatementSync;
  private readonly deleteKey: StatementSync;
  private readonly selectRange: StatementSync;
  private readonly selectFrom: StatementSync;
  private readonly writeRevision: StatementSync;

  constructor(db: DatabaseSync) {
    this.selectModRevision = db.prepare('SELECT mod_revision FROM kv WHERE key = ?');
    this.insertKey = db.prepare('INSERT INTO kv (key, mod_revision, value) VALUES (?, ?, ?)');
    this.updateKey = db.prepare('UPDATE kv SET mod_revision = ?, value = ? WHERE key = ?');
    this.deleteKey = db.prepare('DELETE FROM kv WHERE key = ?');
    this.selectRange = db.prepare('SELECT key, value, mod_revision FROM kv WHERE key >= ? AND key < ? ORDER BY key');
    this.selectFrom = db.prepare('SELECT key, value, mod_revision FROM kv WHERE key >= ? ORDER BY key');
    this.selectRange.setReturnArrays(true);
    this.selectFrom.setReturnArrays(true);
    this.writeRevision = db.prepare(`UPDATE meta SET value = ? WHERE name = 'revision'`);
  }

  /** modRevisionOf is the key's modRevision, 0 when it is absent. */
  modRevisionOf(key: string): number {
    const row = this.selectModRevision.get(key) as { mod_revision: number } | undefined;
    return row?.mod_revision ?? 0;
  }

  insert(key: string, value: string, revision: number): void {
    this.insertKey.run(key, revision, value);
  }

  update(key: string, value: string, revision: number): void {
    this.updateKey.run(revision, value, key);
  }

  delete(key: string): void {
    this.deleteKey.run(key);
  }

  /** persistRevision records the global revision, in the batch's transaction, so it is never reused. */
  persistRevision(revision: number): void {
    this.writeRevision.run(revision);
  }

  /** entriesUnder reads every key that starts with prefix, in key order. */
  entriesUnder(prefix: string): StoredEntry[] {
    const end = prefixEnd(prefix);
    const rows = (end === undefined ? this.selectFrom.all(prefix) : this.selectRange.all(prefix, end)) as unknown as KvRow[];
    return rows.map(([key, value, modRevision]) => ({ key, value, modRevision }));
  }
}

/**
 * prefixEnd is the smallest string after every string that starts with prefix: the prefix with
 * its last code point increased by one (a last code point that cannot grow is dropped first).
 * undefined means no bound (the empty prefix, or one made only of U+10FFFF).
 */
export function prefixEnd(prefix: string): string | undefined {
  const codePoints = Array.from(prefix);
  while (codePoints.length > 0) {
    const last = codePoints.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // The surrogate range holds no characters: the code point after U+D7FF is U+E000.
      const next = last === 0xd7ff ? 0xe000 : last + 1;
      return codePoints.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}
