// cachegate as a process: `npm start` with flags and config files, exit codes, logs, SIGTERM.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/kube-http.js';
import { freePort, startProcess, waitReady } from '../helpers/process.js';

function configFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cachegate-config-')), name);
  writeFileSync(path, text);
  return path;
}

describe('the cachegate process', () => {
  it('case 1: npm start -- --config FILE serves the embedded source on the configured port', async () => {
    const port = await freePort();
    const proc = startProcess(['--config', configFile('c.yaml', `port: ${port}\nembedded: {clusters: [root, extra]}\n`)]);
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitReady(proc, base);
      const ns = await (await fetch(`${base}/clusters/extra/api/v1/namespaces/default`)).json();
      expect(ns).toMatchObject({ kind: 'Namespace', metadata: { name: 'default', annotations: { 'kcp.io/cluster': 'extra' } } });
      expect((await fetch(`${base}/livez`)).status).toBe(200);
    } finally {
      proc.killAll();
      await proc.exited;
    }
  });

  it('case 2: SIGTERM ends open watches, then the process exits 0', async () => {
    const port = await freePort();
    const proc = startProcess(['--port', String(port)]);
    const base = `http://127.0.0.1:${port}`;
    await waitReady(proc, base);
    const watch = await fetch(`${base}/clusters/root/api/v1/namespaces?watch=true`);
    const body = watch.text();
    // The log line can reach the pipe a moment after /readyz answers.
    process.kill(await eventually(() => proc.serverPid()), 'SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(await body).toContain('"ADDED"');
    const lines = proc.output().stdout.trim().split('\n').map((line) => JSON.parse(line) as { msg: string });
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['cachegate is serving', 'shutting down']));
  });

  it.each([
    ['case 3: bad flag value', ['--port', 'x'], 'port'],
    ['case 4: unknown field in the file', ['--config', configFile('bad.yaml', 'embeded: {enabled: true}\n')], 'embeded'],
    ['case 5: bad nested value', ['--config', configFile('bad.json', '{"sources": [{"name": "a", "kind": "nope"}]}')], 'sources[0].kind'],
  ])('%s: exit code 2 and one line naming the field', async (_name, args, field) => {
    const proc = startProcess(args);
    expect(await proc.exited).toBe(2);
    const stderr = proc.output().stderr.trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toContain(`invalid config: ${field}:`);
  });

  it('case 6: one JSON log line per request, echoing x-request-id and without the authorization header', async () => {
    const port = await freePort();
    const proc = startProcess(['--port', String(port)]);
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitReady(proc, base);
      const res = await fetch(`${base}/clusters/root/api/v1/namespaces`, { headers: { 'x-request-id': 'req-123', authorization: 'Bearer secret-token' } });
      expect(res.headers.get('x-request-id')).toBe('req-123');
      const generated = await fetch(`${base}/livez`);
      expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const mine = await eventually(() => {
        const lines = proc.output().stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
        const found = lines.filter((l) => l['reqId'] === 'req-123');
        expect(found).toHaveLength(1);
        return found;
      });
      expect(mine[0]).toMatchObject({ msg: 'request', method: 'GET', statusCode: 200 });
      expect(proc.output().stdout).not.toContain('secret-token');
    } finally {
      proc.killAll();
      await proc.exited;
    }
  });
});
