// The prepared statements over the kv and meta tables. Keys compare as SQLite's BINARY collation
// does, byte by byte in UTF-8, which is Unicode code point order (etcd orders its keys the same
// way), and a prefix is read as a range of the primary key so a list never scans the table.

import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { StoredEntry } from '../backend.js';

/** LIST_PAGE_ROWS is how many rows pagesUnder reads at once: a few MB of values at most. */
const LIST_PAGE_ROWS = 1024;

/** KvRow is a listed row as an array (key, value, mod_revision): cheaper to build than an object per row. */
type KvRow = readonly [string, string, number];

/** KvTable reads and writes keys and the persisted revision through statements prepared once. */
export class KvTable {
  private readonly selectModRevision: StatementSync;
  private readonly insertKey: StatementSync;
  private readonly updateKey: StatementSync;
  private readonly deleteKey: StatementSync;
  private readonly firstPage: StatementSync;
  private readonly nextPage: StatementSync;
  private readonly writeRevision: StatementSync;

  constructor(db: DatabaseSync) {
    this.selectModRevision = db.prepare('SELECT mod_revision FROM kv WHERE key = ?');
    this.insertKey = db.prepare('INSERT INTO kv (key, mod_revision, value) VALUES (?, ?, ?)');
    this.updateKey = db.prepare('UPDATE kv SET mod_revision = ?, value = ? WHERE key = ?');
    this.deleteKey = db.prepare('DELETE FROM kv WHERE key = ?');
    // ?2 NULL: no upper bound. The lower bound alone drives the primary key's range scan.
    const page = (from: string) => `SELECT key, value, mod_revision FROM kv WHERE ${from} AND (?2 IS NULL OR key < ?2) ORDER BY key LIMIT ?3`;
    this.firstPage = db.prepare(page('key >= ?1'));
    this.nextPage = db.prepare(page('key > ?1'));
    this.firstPage.setReturnArrays(true);
    this.nextPage.setReturnArrays(true);
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

  /**
   * pagesUnder reads every key that starts with prefix, in key order, a page of rows at a time:
   * the caller decodes a page while its values are young, so the raw text of a large key space
   * dies in the young generation instead of being held (and promoted) all at once. No commit may
   * land between two pages: the caller holds the commits while it reads them.
   */
  *pagesUnder(prefix: string, pageRows = LIST_PAGE_ROWS): Generator<StoredEntry[]> {
    const end = prefixEnd(prefix) ?? null;
    let rows = this.firstPage.all(prefix, end, pageRows) as unknown as KvRow[];
    for (;;) {
      yield rows.map(([key, value, modRevision]) => ({ key, value, modRevision }));
      const last = rows[rows.length - 1];
      if (rows.length < pageRows || last === undefined) return;
      rows = this.nextPage.all(last[0], end, pageRows) as unknown as KvRow[];
    }
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
