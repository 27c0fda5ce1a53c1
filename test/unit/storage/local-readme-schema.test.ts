// The local backend's README shows the SQL schema of its file: the tables a freshly opened
// database really has must be the ones it shows.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openLocalBackend } from '../../../src/storage/local/local-backend.js';
import { DATABASE_FILE } from '../../../src/storage/local/sqlite-schema.js';

const README = fileURLToPath(new URL('../../../src/storage/local/README.md', import.meta.url));

/** normalized is a CREATE TABLE statement with the spacing, `IF NOT EXISTS`, comment and `;` taken out. */
function normalized(sql: string): string {
  return sql.replace(/--.*$/gm, '').replace(/IF NOT EXISTS /i, '').replace(/;\s*$/, '').replace(/\s+/g, ' ').trim();
}

function documentedTables(): string[] {
  const block = /## Schema[^\n]*\n+```sql\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))?.[1] ?? '';
  return block.split('\n').filter((line) => line.startsWith('CREATE TABLE')).map(normalized).sort();
}

describe('the local backend README schema', () => {
  it('case 1: lists exactly the tables of a new database, as created', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cachegate-schema-doc-'));
    try {
      await (await openLocalBackend({ dataDir, fsync: false })).close();
      const db = new DatabaseSync(join(dataDir, DATABASE_FILE), { readOnly: true });
      const rows = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' ORDER BY name`).all() as { sql: string }[];
      db.close();
      expect(documentedTables()).toEqual(rows.map((row) => normalized(row.sql)).sort());
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
