// Durability of the local backend across a real crash: a child process commits 1,000 creates
// (8 concurrent writers, fsync on) and prints each key as its commit resolves; it is killed with
// SIGKILL in the middle of writing, and the directory is reopened here.
//   case 1: every acknowledged key is there with its value and revision, the revision counter is
//           at least the last acknowledged one, and the lock died with the process

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalBackend } from '../../../src/storage/local/local-backend.js';
import type { LocalBackend } from '../../../src/storage/local/local-backend.js';
import { DEADLINE_MS } from '../../helpers/kube-http.js';
import { valueOf } from '../../helpers/local-writer.js';

const PROJECT_ROOT = new URL('../../..', import.meta.url).pathname;
const KILL_AFTER_ACKS = 300;

/** Ack is one acknowledged commit, as the writer printed it. */
interface Ack {
  readonly key: string;
  readonly revision: number;
}

function acksIn(stdout: string): Ack[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('/kill/'))
    .map((line) => {
      const [key, revision] = line.split(' ');
      return { key: key!, revision: Number(revision) };
    });
}

describe('local backend killed while writing', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cachegate-kill-'));
  let reopened: LocalBackend | undefined;

  afterEach(async () => {
    await reopened?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('case 1: every acknowledged key is there with its value and revision, the revision counter is at least the last acknowledged one, and the lock died with the process', async () => {
    const writer = spawn(join(PROJECT_ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', 'test/helpers/local-writer.ts', 'write', dataDir], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // Killed from the output handler itself, the moment the 300th acknowledgement arrives.
    writer.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (acksIn(stdout).length >= KILL_AFTER_ACKS) writer.kill('SIGKILL');
    });
    writer.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<string>((resolve) => writer.on('exit', (code, signal) => resolve(signal ?? `exit ${code}: ${stderr}`)));
    const deadline = setTimeout(() => writer.kill('SIGKILL'), 2 * DEADLINE_MS);
    expect(await exited).toBe('SIGKILL');
    clearTimeout(deadline);
    expect(acksIn(stdout).length, stderr).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    const acks = acksIn(stdout);
    console.log(`killed after ${acks.length} acknowledged creates${stdout.includes('done') ? ' (the writer had finished)' : ''}`);

    reopened = await openLocalBackend({ dataDir });
    const stored = new Map((await reopened.list('/kill/')).entries.map((entry) => [entry.key, entry]));
    for (const ack of acks) {
      const entry = stored.get(ack.key);
      expect(entry?.modRevision, ack.key).toBe(ack.revision);
      expect(entry?.value === valueOf(Number(ack.key.slice('/kill/'.length))), ack.key).toBe(true);
    }
    expect(await reopened.currentRevision()).toBeGreaterThanOrEqual(Math.max(...acks.map((ack) => ack.revision)));
  });
});
