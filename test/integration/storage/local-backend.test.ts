// The local backend on real SQLite files in temporary directories: the shared conformance suite,
// then what only a file-backed, single-process backend does.
//   case 1: a restart keeps every entry, and the revision continues above the last one even when that was a delete
//   case 2: a database written by a newer cachegate is refused, naming its format
//   case 3: a file that is not a database, and an SQLite database that is not cachegate's, are refused
//   case 4: a data directory that cannot be created is refused, naming the path
//   case 5: a second opener, in this process or another, is refused while the first holds the directory
//   case 6: fsync off still round-trips, across a restart
//   case 7: a feed from before what the recent-changes window covers is told it was compacted, and ends
//   case 8: close lets pending commits settle first; calls after close reject
//   case 9: a batch never holds more ops than maxBatchOps, and ops in one batch see each other in order
//   case 10: a list longer than the pages it is read in has every key under its prefix once, in order, and only those

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import type { Backend } from '../../../src/storage/backend.js';
import { openLocalBackend } from '../../../src/storage/local/local-backend.js';
import type { LocalBackend, LocalBackendOptions } from '../../../src/storage/local/local-backend.js';
import { StorageOpenError } from '../../../src/storage/storage-open-error.js';
import { FeedRecorder } from '../../helpers/feed-recorder.js';
import { describeBackendConformance } from './backend-conformance.js';

const PROJECT_ROOT = new URL('../../..', import.meta.url).pathname;

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'cachegate-local-'));
}

const conformanceDirs = new Map<Backend, string>();
describeBackendConformance(
  'local',
  async () => {
    const dataDir = tempDir();
    // Case 7 opens a feed from before a 2,000-commit run: recent changes enough to replay them.
    const backend = await openLocalBackend({ dataDir, recentChanges: 10_000, recentChangesChars: 64 * 1024 * 1024 });
    conformanceDirs.set(backend, dataDir);
    return backend;
  },
  async (backend) => {
    await backend.close();
    rmSync(conformanceDirs.get(backend)!, { recursive: true, force: true });
  },
);

/** openError opens the backend expecting a StorageOpenError, and returns it. */
async function openError(opts: LocalBackendOptions): Promise<StorageOpenError> {
  const err: unknown = await openLocalBackend(opts).then(
    (backend) => backend.close().then(() => new Error('the backend opened')),
    (thrown: unknown) => thrown,
  );
  if (err instanceof StorageOpenError) return err;
  throw err;
}

/** openInChild opens the backend from another process and returns what it printed. */
function openInChild(dataDir: string): string {
  const child = spawnSync(join(PROJECT_ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', 'test/helpers/local-writer.ts', 'open', dataDir], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  return `${child.stdout}${child.stderr}`.trim();
}

describe('local backend', () => {
  const dirs: string[] = [];
  const backends: LocalBackend[] = [];
  const dir = (): string => {
    const created = tempDir();
    dirs.push(created);
    return created;
  };
  const open = async (opts: LocalBackendOptions): Promise<LocalBackend> => {
    const backend = await openLocalBackend(opts);
    backends.push(backend);
    return backend;
  };

  afterEach(async () => {
    for (const backend of backends.splice(0)) await backend.close();
    for (const created of dirs.splice(0)) rmSync(created, { recursive: true, force: true });
  });

  it('case 1: a restart keeps every entry, and the revision continues above the last one even when that was a delete', async () => {
    const dataDir = join(dir(), 'nested', 'data');
    const first = await openLocalBackend({ dataDir });
    const revisions = await Promise.all(Array.from({ length: 300 }, (_, i) => first.commit({ kind: 'create', key: `/r/${i}`, value: `{"i":${i}}` })));
    const before = await first.list('/r/');
    const lastCreate = Math.max(...revisions.map((result) => result.revision));
    const deleted = await first.commit({ kind: 'delete', key: '/r/0', expected: revisions[0]!.revision });
    const gone = await first.commit({ kind: 'delete', key: '/r/1', expected: revisions[1]!.revision });
    expect(deleted.ok && gone.ok).toBe(true);
    await first.close();

    const second = await open({ dataDir });
    expect(await second.currentRevision()).toBe(gone.revision);
    const after = await second.list('/r/');
    expect(after.entries).toEqual(before.entries.filter((entry) => entry.key !== '/r/0' && entry.key !== '/r/1'));
    const next = await second.commit({ kind: 'create', key: '/r/0', value: 'again' });
    expect(next).toEqual({ ok: true, revision: gone.revision + 1 });
    expect(gone.revision).toBeGreaterThan(lastCreate);
  });

  it('case 2: a database written by a newer cachegate is refused, naming its format', async () => {
    const dataDir = dir();
    await (await openLocalBackend({ dataDir })).close();
    const db = new DatabaseSync(join(dataDir, 'cachegate.db'));
    db.prepare(`UPDATE meta SET value = 99 WHERE name = 'format'`).run();
    db.close();
    const err = await openError({ dataDir });
    expect(err.message).toContain(join(dataDir, 'cachegate.db'));
    expect(err.message).toMatch(/written by a newer cachegate \(format 99, this one reads ≤ 1\)/);
  });

  it('case 3: a file that is not a database, and an SQLite database that is not cachegate\'s, are refused', async () => {
    const garbage = dir();
    writeFileSync(join(garbage, 'cachegate.db'), Buffer.alloc(64 * 1024, 'not a database '));
    expect((await openError({ dataDir: garbage })).message).toMatch(new RegExp(`${join(garbage, 'cachegate.db')} is not a database or is corrupt`));

    const foreign = dir();
    const db = new DatabaseSync(join(foreign, 'cachegate.db'));
    db.exec('CREATE TABLE notes (text TEXT)');
    db.close();
    expect((await openError({ dataDir: foreign })).message).toMatch(/is an SQLite database but not cachegate's/);
  });

  it('case 4: a data directory that cannot be created is refused, naming the path', async () => {
    // A regular file as the parent: refused for root too, for whom chmod 000 would not stop anything.
    const file = join(dir(), 'a-file');
    writeFileSync(file, 'x');
    const dataDir = join(file, 'data');
    const err = await openError({ dataDir });
    expect(err.message).toContain(dataDir);
    expect(err.message).toMatch(/cannot be used: .*ENOTDIR/);
  });

  it('case 5: a second opener, in this process or another, is refused while the first holds the directory', async () => {
    const dataDir = dir();
    const first = await open({ dataDir });
    await first.commit({ kind: 'create', key: '/held', value: 'x' });
    expect((await openError({ dataDir })).message).toBe(`local: ${join(dataDir, 'cachegate.db')} is in use by another process`);
    // The refused opener closed its file: the first still holds the lock, against another process too.
    expect(openInChild(dataDir)).toMatch(/^StorageOpenError: .* is in use by another process$/);
    expect(await first.commit({ kind: 'create', key: '/still-mine', value: 'x' })).toMatchObject({ ok: true });
    await first.close();
    expect(openInChild(dataDir)).toBe('opened');
    expect((await (await open({ dataDir })).list('/')).entries.map((entry) => entry.key)).toEqual(['/held', '/still-mine']);
  });

  it('case 6: fsync off still round-trips, across a restart', async () => {
    const dataDir = dir();
    const first = await openLocalBackend({ dataDir, fsync: false });
    const value = JSON.stringify({ text: 'ü'.repeat(1000) });
    const created = await first.commit({ kind: 'create', key: '/f', value });
    await first.close();
    const second = await open({ dataDir, fsync: false });
    expect((await second.list('/')).entries).toEqual([{ key: '/f', value, modRevision: created.revision }]);
  });

  it('case 7: a feed from before what the recent-changes window covers is told it was compacted, and ends', async () => {
    const dataDir = dir();
    const backend = await open({ dataDir, recentChanges: 10 });
    for (let i = 0; i < 30; i++) await backend.commit({ kind: 'create', key: `/w/${i}`, value: 'x' });
    const covered = new FeedRecorder();
    backend.watch('/w/', 20, covered.handlers);
    const tooOld = new FeedRecorder();
    backend.watch('/w/', 5, tooOld.handlers);
    expect(tooOld.compactions).toBe(0);
    await tooOld.compacted();
    await covered.reached(30);
    expect(covered.revisions()).toEqual(Array.from({ length: 10 }, (_, i) => 21 + i));
    const last = await backend.commit({ kind: 'create', key: '/w/last', value: 'x' });
    await covered.reached(last.revision);
    expect(tooOld.changes).toEqual([]);
    expect(tooOld.compactions).toBe(1);

    // After a restart the window starts empty: only revisions from the reopened one on resume.
    await backend.close();
    const reopened = await open({ dataDir });
    const beforeRestart = new FeedRecorder();
    reopened.watch('/w/', last.revision - 1, beforeRestart.handlers);
    await beforeRestart.compacted();
  });

  it('case 8: close lets pending commits settle first; calls after close reject', async () => {
    const dataDir = dir();
    const backend = await openLocalBackend({ dataDir });
    const pending = Array.from({ length: 100 }, (_, i) => backend.commit({ kind: 'create', key: `/p/${i}`, value: 'x' }));
    await backend.close();
    expect((await Promise.all(pending)).every((result) => result.ok)).toBe(true);
    const refused = await backend.commit({ kind: 'create', key: '/late', value: 'x' }).catch((err: unknown) => err);
    expect(isAppError(refused, 'ServiceUnavailable')).toBe(true);
    await expect(backend.list('/')).rejects.toThrow(/closed/);
    await expect(backend.currentRevision()).rejects.toThrow(/closed/);
    expect(() => backend.watch('/', 0, new FeedRecorder().handlers)).toThrow(/closed/);
    expect(backend.health().ok).toBe(false);
    expect((await (await open({ dataDir })).list('/p/')).entries).toHaveLength(100);
  });

  it('case 9: a batch never holds more ops than maxBatchOps, and ops in one batch see each other in order', async () => {
    const sizes: number[] = [];
    const backend = await open({ dataDir: dir(), maxBatchOps: 7, onBatch: (stats) => sizes.push(stats.items) });
    const [created, refused, updated, deleted, recreated] = await Promise.all([
      backend.commit({ kind: 'create', key: '/b', value: '1' }),
      backend.commit({ kind: 'create', key: '/b', value: 'refused' }),
      backend.commit({ kind: 'update', key: '/b', value: '2', expected: 1 }),
      backend.commit({ kind: 'delete', key: '/b', expected: 2 }),
      backend.commit({ kind: 'create', key: '/b', value: '3' }),
    ]);
    expect([created, refused, updated, deleted, recreated]).toEqual([
      { ok: true, revision: 1 },
      { ok: false, current: 1, revision: 1 },
      { ok: true, revision: 2 },
      { ok: true, revision: 3 },
      { ok: true, revision: 4 },
    ]);
    const many = await Promise.all(Array.from({ length: 100 }, (_, i) => backend.commit({ kind: 'create', key: `/m/${i}`, value: 'x' })));
    expect(many.every((result) => result.ok)).toBe(true);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(105);
  });

  it('case 10: a list longer than the pages it is read in has every key under its prefix once, in order, and only those', async () => {
    const backend = await open({ dataDir: dir(), fsync: false });
    // 2,600 keys: more than two of the backend's pages, ending mid-page; neighbours on both sides.
    const inside = Array.from({ length: 2600 }, (_, i) => `/p/${String(i).padStart(5, '0')}`);
    const results = await Promise.all([...inside, '/o', '/p', '/q/0'].map((key) => backend.commit({ kind: 'create', key, value: `{"k":"${key}"}` })));
    expect(results.every((result) => result.ok)).toBe(true);
    const listed = await backend.list('/p/');
    expect(listed.entries.map((entry) => entry.key)).toEqual(inside);
    expect(listed.revision).toBe(Math.max(...results.map((result) => result.revision)));
    // A reader sees each entry once and keeps what it returns.
    const even = await backend.list('/p/', (entry) => (Number(entry.key.slice(3)) % 2 === 0 ? entry.value : undefined));
    expect(even.entries).toEqual(inside.filter((_, i) => i % 2 === 0).map((key) => `{"k":"${key}"}`));
  });
});
