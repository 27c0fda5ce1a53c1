// cachegate configured for an etcd that does not answer when it starts: it cannot load the state it
// is meant to serve, so start-up ends as for any backend that cannot be opened, with exit code 2
// and one line naming etcd, not a stack trace and never an empty cache.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/kube-http.js';
import { freePort, startProcess } from '../../helpers/process.js';

describe('cachegate on an etcd that does not answer at start', () => {
  it('case 1: exit code 2 and one line naming etcd and the load', async () => {
    // A loopback port nothing listens on: every connection is refused.
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const config = join(mkdtempSync(join(tmpdir(), 'cachegate-etcd-down-')), 'cachegate.json');
    writeFileSync(config, JSON.stringify({ store: { backend: 'etcd', etcd: { endpoints: [endpoint], dialTimeoutSeconds: 2 } } }));
    const proc = startProcess(['--port', String(await freePort()), '--config', config]);
    const code = await eventually(() => proc.exited);
    expect(code).toBe(2);
    const stderr = proc.output().stderr.trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^cachegate: etcd: .*\(while loading the stored state\)$/);
  });
});
