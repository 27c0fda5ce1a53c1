// The local backend as a user meets it through `npm start`: every write acknowledged before a
// kill -9 is there after the restart, and a data directory that cannot be used ends start-up with
// exit code 2 and one line saying why, never an empty start.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { eventually, request } from '../../helpers/kube-http.js';
import { freePort, startProcess, waitReady } from '../../helpers/process.js';
import type { Started } from '../../helpers/process.js';

const WRITES = 1000;
const CONCURRENCY = 16;

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'cachegate-durability-'));
}

async function started(dataDir: string): Promise<{ proc: Started; base: string }> {
  const port = await freePort();
  const proc = startProcess(['--port', String(port)], { CACHEGATE_DATA_DIR: dataDir });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(proc, base);
  return { proc, base };
}

/** Writes are the names acknowledged with 201 and, for the failure message, every other answer. */
interface Writes {
  readonly acked: string[];
  readonly others: string[];
}

/** writeUntilKilled creates configmaps with CONCURRENCY writers until the process is gone or all are sent. */
async function writeUntilKilled(base: string, kill: (acked: number) => void): Promise<Writes> {
  const acked: string[] = [];
  const others: string[] = [];
  let next = 0;
  const writer = async (): Promise<void> => {
    while (next < WRITES) {
      const name = `cm-${next++}`;
      try {
        const res = await fetch(`${base}/clusters/root/api/v1/namespaces/default/configmaps`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ metadata: { name }, data: { n: name } }),
        });
        // A 201 is an acknowledgement even if the process dies before the body arrives.
        if (res.status === 201) acked.push(name);
        const body = await res.text();
        if (res.status !== 201) others.push(`${res.status} ${body}`);
      } catch (err) {
        others.push(String(err));
        return; // the process is gone
      }
      kill(acked.length);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, writer));
  return { acked, others };
}

describe('the local backend through npm start', () => {
  it('case 1: kill -9 during 1,000 writes: every acknowledged write is there after the restart', async () => {
    const dataDir = tempDir();
    const first = await started(dataDir);
    let killed = false;
    const { acked, others } = await writeUntilKilled(first.base, (count) => {
      if (!killed && count >= WRITES / 3) {
        killed = true;
        first.proc.killAll();
      }
    });
    await first.proc.exited;
    const why = JSON.stringify({ others: others.slice(0, 5), stderr: first.proc.output().stderr.slice(-2000) });
    expect(acked.length, why).toBeGreaterThanOrEqual(WRITES / 3);

    const second = await started(dataDir);
    try {
      const list = await request('GET', `${second.base}/clusters/root/api/v1/namespaces/default/configmaps`);
      expect(list.status).toBe(200);
      const stored = new Set((list.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name));
      expect(acked.filter((name) => !stored.has(name))).toEqual([]);
    } finally {
      second.proc.killAll();
      await second.proc.exited;
    }
  });

  it('case 2: a second process on the same data directory is refused while the first runs', async () => {
    const dataDir = tempDir();
    const first = await started(dataDir);
    try {
      const second = startProcess(['--port', String(await freePort())], { CACHEGATE_DATA_DIR: dataDir });
      expect(await second.exited).toBe(2);
      expect(second.output().stderr.trim()).toMatch(/^cachegate: local: .*in use by another process/);
    } finally {
      first.proc.killAll();
      await first.proc.exited;
    }
  });

  const corrupt = (): string => {
    const dir = tempDir();
    writeFileSync(join(dir, 'cachegate.db'), Buffer.alloc(8192, 0x5a));
    return dir;
  };
  const fromTheFuture = (): string => {
    const dir = tempDir();
    const db = new DatabaseSync(join(dir, 'cachegate.db'));
    db.exec('CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID');
    db.exec("INSERT INTO meta (name, value) VALUES ('format', 99), ('revision', 7)");
    db.close();
    return dir;
  };
  const notADirectory = (): string => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, 'x');
    return join(file, 'data');
  };

  it.each([
    ['case 3: a corrupt database file', corrupt, /cachegate\.db/],
    ['case 4: data written by a newer cachegate', fromTheFuture, /newer/],
    ['case 5: a data directory that cannot be created', notADirectory, /data directory .* cannot be used/],
  ])('%s: exit code 2 and one line naming the problem', async (_name, prepare, message) => {
    const proc = startProcess(['--port', String(await freePort())], { CACHEGATE_DATA_DIR: prepare() });
    const code = await eventually(() => proc.exited);
    expect(code).toBe(2);
    const stderr = proc.output().stderr.trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });
});
