// The local backend on a disk that fills up: a real, tiny tmpfs mounted for the test (so it needs
// root with CAP_SYS_ADMIN; elsewhere it is skipped and says so).
//   case 1: a full disk rejects commits with ServiceUnavailable and turns health() bad, loses
//           nothing that was committed, and both recover once a later commit succeeds

import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, isAppError } from '../../../src/errors.js';
import { openLocalBackend } from '../../../src/storage/local/local-backend.js';
import type { LocalBackend } from '../../../src/storage/local/local-backend.js';

const MOUNT_SIZE = '2m';
const LARGE_VALUE = JSON.stringify({ data: 'd'.repeat(256 * 1024) });
const MAX_ATTEMPTS = 50;

/** fillDisk writes one file until the filesystem has no space left. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(16 * 1024, 'f');
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

/** commitUntilRefused writes large values until a commit rejects, and returns that rejection. */
async function commitUntilRefused(backend: LocalBackend): Promise<AppError> {
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const outcome = await backend.commit({ kind: 'create', key: `/full/${i}`, value: LARGE_VALUE }).catch((err: unknown) => err);
    if (outcome instanceof AppError) return outcome;
    if (outcome instanceof Error) throw outcome;
  }
  throw new Error(`${MAX_ATTEMPTS} large commits on a full disk all held`);
}

describe('local backend on a full disk', () => {
  let mountPoint: string | undefined;
  let backend: LocalBackend | undefined;

  afterEach(async () => {
    await backend?.close();
    if (mountPoint !== undefined) {
      spawnSync('umount', [mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  it('case 1: a full disk rejects commits with ServiceUnavailable and turns health() bad, loses nothing that was committed, and both recover once a later commit succeeds', async (ctx) => {
    mountPoint = mkdtempSync(join(tmpdir(), 'cachegate-full-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${MOUNT_SIZE}`, 'tmpfs', mountPoint], { encoding: 'utf8' });
    if (mounted.status !== 0) ctx.skip(`a tmpfs cannot be mounted here (needs root): ${mounted.stderr.trim()}`);
    const dataDir = join(mountPoint, 'data');
    backend = await openLocalBackend({ dataDir });
    const kept = await backend.commit({ kind: 'create', key: '/kept', value: '{"kept":true}' });
    expect(kept.ok).toBe(true);

    fillDisk(join(mountPoint, 'filler'));
    const refused = await commitUntilRefused(backend);
    expect(isAppError(refused, 'ServiceUnavailable')).toBe(true);
    expect(refused.message).toMatch(/^local: .*full/);
    expect(backend.health()).toEqual({ ok: false, message: refused.message });
    const whileFull = await backend.list('/');
    expect(whileFull.entries.map((entry) => entry.key)).toContain('/kept');

    rmSync(join(mountPoint, 'filler'));
    const after = await backend.commit({ kind: 'create', key: '/after', value: '{}' });
    expect(after).toMatchObject({ ok: true });
    expect(backend.health()).toEqual({ ok: true });

    await backend.close();
    backend = await openLocalBackend({ dataDir });
    const reopened = new Map((await backend.list('/')).entries.map((entry) => [entry.key, entry.modRevision]));
    expect(reopened.get('/kept')).toBe(kept.revision);
    expect(reopened.get('/after')).toBe(after.revision);
    expect(await backend.currentRevision()).toBe(after.revision);
  });
});
