// A separate process for the local backend's fault tests, run as
// `node --import tsx test/helpers/local-writer.ts <mode> <dataDir>`:
//   write: opens the backend and commits 1,000 creates from 8 concurrent writers, printing
//          `<key> <revision>` for each as its commit resolves (stdout to a pipe is synchronous on
//          Linux, so a printed line was acknowledged before any later kill), then `done`, and
//          stays alive until killed, so the test always kills a running process;
//   open:  tries to open the backend and prints `opened`, or the error's name and message.

import { pathToFileURL } from 'node:url';
import { openLocalBackend } from '../../src/storage/local/local-backend.js';

const WRITES = 1_000;
const WRITERS = 8;

/** valueOf is a ~700-byte JSON object, like a small Kubernetes object. */
export function valueOf(i: number): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `object-${i}`, namespace: 'default' }, data: { payload: 'p'.repeat(600), i } });
}

async function write(dataDir: string): Promise<void> {
  const backend = await openLocalBackend({ dataDir });
  let next = 0;
  const writer = async (): Promise<void> => {
    for (let i = next++; i < WRITES; i = next++) {
      const key = `/kill/${String(i).padStart(4, '0')}`;
      const result = await backend.commit({ kind: 'create', key, value: valueOf(i) });
      if (result.ok) process.stdout.write(`${key} ${result.revision}\n`);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  process.stdout.write('done\n');
  setInterval(() => undefined, 60_000);
}

async function open(dataDir: string): Promise<void> {
  try {
    await openLocalBackend({ dataDir });
    process.stdout.write('opened\n');
  } catch (err) {
    process.stdout.write(`${(err as Error).name}: ${(err as Error).message}\n`);
  }
}

async function main(): Promise<void> {
  const [mode, dataDir] = process.argv.slice(2);
  if (dataDir === undefined || (mode !== 'write' && mode !== 'open')) {
    process.stderr.write('usage: local-writer.ts write|open <dataDir>\n');
    process.exit(2);
  }
  await (mode === 'write' ? write(dataDir) : open(dataDir));
}

// Run only as a script: the test imports valueOf from here to check what was written.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
