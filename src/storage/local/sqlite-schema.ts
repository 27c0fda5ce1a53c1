// Opening the local backend's SQLite file: take the directory for this process alone, check that
// the file is a healthy cachegate database of a format this code reads, and create the schema on
// a new file. Every reason the file cannot be used ends here as a StorageOpenError naming the path.
//
// The lock is SQLite's own: in EXCLUSIVE locking mode the connection keeps the file lock it takes
// with the first write transaction until it closes. The kernel drops it when the process dies (even
// by kill -9), so no stale lock file is left behind, and SQLite tracks locks per file within one
// process too, so a second opener in the same process is refused as well.

import { accessSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { StorageOpenError } from '../storage-open-error.js';

/** DATABASE_FILE is the name of the database file inside the data directory. */
export const DATABASE_FILE = 'cachegate.db';

/** STORAGE_FORMAT is the format this code writes; it reads this one and every older one. */
export const STORAGE_FORMAT = 1;

/** OpenedDatabase is a locked, checked database and the revision it was left at. */
export interface OpenedDatabase {
  readonly db: DatabaseSync;
  readonly path: string;
  readonly revision: number;
}

/** PAGE_CACHE_KIB is SQLite's page cache for the connection, outside the V8 heap. */
const PAGE_CACHE_KIB = 8 * 1024;

/** SQLITE_BUSY and SQLITE_LOCKED: another connection holds the file. */
const LOCKED_CODES: ReadonlySet<number> = new Set([5, 6]);

/** SQLITE_CORRUPT and SQLITE_NOTADB: the file is not a usable database. */
const CORRUPT_CODES: ReadonlySet<number> = new Set([11, 26]);

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, mod_revision INTEGER NOT NULL, value TEXT NOT NULL);
`;

/**
 * openDatabase opens (creating if needed) the database in dataDir, locked for this process.
 * fsync true makes every commit durable against power loss (synchronous=FULL); false keeps it
 * durable against a crash of the process only (synchronous=NORMAL).
 */
export function openDatabase(dataDir: string, fsync: boolean): OpenedDatabase {
  prepareDirectory(dataDir);
  const path = join(dataDir, DATABASE_FILE);
  let db: DatabaseSync | undefined;
  try {
    // timeout 0: a file held by another process fails at once instead of waiting for it.
    db = new DatabaseSync(path, { timeout: 0 });
    lockAndInitialize(db, path);
    checkIntegrity(db, path);
    db.exec(`PRAGMA synchronous=${fsync ? 'FULL' : 'NORMAL'}`);
    // The page cache is resident memory on top of the watch cache, which is what serves: at 64 MiB
    // the RSS per copy of 100k widgets was 1,904 B at rest, at 8 MiB 1,229 B, with the sync (9,025
    // against 8,334 objects/s) and restart unchanged. A page it misses is read from the kernel's
    // file cache: a system call, not a disk read, for a commit's condition check.
    db.exec(`PRAGMA cache_size=${-PAGE_CACHE_KIB}`);
    return { db, path, revision: readMeta(db, 'revision') ?? 0 };
  } catch (err) {
    closeQuietly(db);
    throw openError(err, path);
  }
}

function prepareDirectory(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (err) {
    throw new StorageOpenError(`local: data directory ${dataDir} cannot be used: ${messageOf(err)}`, { cause: err });
  }
}

/** lockAndInitialize takes the exclusive lock with a write transaction, in which it checks the format and creates the schema. */
function lockAndInitialize(db: DatabaseSync, path: string): void {
  // EXCLUSIVE before WAL: the WAL index then lives in this process's memory, and no -shm file
  // would let another process in.
  db.exec('PRAGMA locking_mode=EXCLUSIVE');
  const mode = db.prepare('PRAGMA journal_mode=WAL').get() as { journal_mode?: string } | undefined;
  if (mode?.journal_mode !== 'wal') throw new StorageOpenError(`local: ${path} cannot be put in WAL mode`);
  db.exec('BEGIN IMMEDIATE');
  try {
    checkFormat(db, path);
    db.exec(SCHEMA);
    db.prepare(`INSERT OR IGNORE INTO meta (name, value) VALUES ('format', ?), ('revision', 0)`).run(STORAGE_FORMAT);
    db.exec('COMMIT');
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** checkFormat refuses a file written by a newer cachegate, or a database that is not cachegate's. */
function checkFormat(db: DatabaseSync, path: string): void {
  const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).all() as { name: string }[];
  if (tables.length === 0) return;
  if (!tables.some((table) => table.name === 'meta')) {
    throw new StorageOpenError(`local: ${path} is an SQLite database but not cachegate's (it has no meta table)`);
  }
  const format = readMeta(db, 'format');
  if (format === undefined) throw new StorageOpenError(`local: ${path} is not a cachegate database (it records no format)`);
  if (format > STORAGE_FORMAT) {
    throw new StorageOpenError(
      `local: ${path} was written by a newer cachegate (format ${format}, this one reads ≤ ${STORAGE_FORMAT})`,
    );
  }
}

/** checkIntegrity runs SQLite's quick_check: the b-trees are walked, so a damaged file is refused before it is served. */
function checkIntegrity(db: DatabaseSync, path: string): void {
  const rows = db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
  const problems = rows.map((row) => row.quick_check).filter((line) => line !== 'ok');
  if (problems.length > 0) {
    throw new StorageOpenError(`local: ${path} is corrupt (quick_check: ${problems.slice(0, 3).join('; ')})`);
  }
}

function readMeta(db: DatabaseSync, name: string): number | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE name = ?').get(name) as { value: number } | undefined;
  return row?.value;
}

function openError(err: unknown, path: string): StorageOpenError {
  if (err instanceof StorageOpenError) return err;
  const code = sqliteErrorCode(err);
  if (code !== undefined && LOCKED_CODES.has(code)) {
    return new StorageOpenError(`local: ${path} is in use by another process`, { cause: err });
  }
  if (code !== undefined && CORRUPT_CODES.has(code)) {
    return new StorageOpenError(`local: ${path} is not a database or is corrupt: ${messageOf(err)}`, { cause: err });
  }
  return new StorageOpenError(`local: ${path} cannot be opened: ${messageOf(err)}`, { cause: err });
}

/** sqliteErrorCode is the primary SQLite result code of an error thrown by node:sqlite. */
export function sqliteErrorCode(err: unknown): number | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { errcode?: unknown }).errcode : undefined;
  return typeof code === 'number' ? code & 0xff : undefined;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function closeQuietly(db: DatabaseSync | undefined): void {
  try {
    if (db?.isOpen) db.close();
  } catch {
    // the open failed already; that failure is the one worth reporting
  }
}
