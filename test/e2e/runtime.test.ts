// The Node.js that runs cachegate is the one package.json installs (the `node` package), not the
// machine's: npm scripts put node_modules/.bin first on PATH, so `npm test`, `npx vitest` and the
// processes they start through `npm start` all run on it.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/kube-http.js';
import { freePort, startProcess, waitReady } from '../helpers/process.js';

const ROOT = new URL('../../', import.meta.url);
const REQUIRED_MAJOR = 24;

/** installedNode is the version of the `node` package in node_modules, e.g. "v24.21.0". */
function installedNode(): string {
  const pkg = JSON.parse(readFileSync(new URL('node_modules/node/package.json', ROOT), 'utf8')) as { version: string };
  return `v${pkg.version}`;
}

function major(version: string): number {
  return Number(/^v(\d+)\./.exec(version)?.[1]);
}

describe('the Node.js runtime', () => {
  it('case 1: the installed node package is Node 24', () => {
    expect(major(installedNode())).toBe(REQUIRED_MAJOR);
  });

  it('case 2: the test workers run on the installed Node', () => {
    expect(process.version).toBe(installedNode());
  });

  it('case 3: npm start serves on the installed Node and logs its version', async () => {
    const port = await freePort();
    const proc = startProcess(['--port', String(port)]);
    try {
      await waitReady(proc, `http://127.0.0.1:${port}`);
      // The log line can reach the pipe a moment after /readyz answers.
      expect(await eventually(() => proc.serverNode())).toBe(installedNode());
    } finally {
      proc.killAll();
      await proc.exited;
    }
  });
});
