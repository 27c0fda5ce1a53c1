// A second cachegate as a remote `kcp` source, reached through a kubeconfig (and a TCP proxy
// that counts the watches): down at start (the embedded source replicates regardless and
// readiness names the remote), caught up once it comes up, and exact after its watch streams are
// ended while objects change.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../helpers/kube-http.js';
import { freePort } from '../helpers/process.js';
import { CCRS, cachedObjects, ccr } from '../helpers/replication.js';
import { kubeconfigFor } from '../helpers/kubeconfig.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { readyz, startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'remote.example.com', version: 'v1', resource: 'things' };


async function seed(base: string): Promise<void> {
  expect((await request('POST', `${base}${CRDS}`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Thing', versions: [GVR.version] }))).status).toBe(201);
  expect((await request('POST', `${base}${CCRS}`, ccr('things', GVR))).status).toBe(201);
}

describe('a remote kcp source through a kubeconfig', () => {
  let local: TestApp;
  let remote: TestApp | undefined;
  let remotePort: number;
  let proxy: TcpProxy;
  /** thingsWatches counts the watches of things the local cachegate opened through the proxy. */
  let thingsWatches = 0;

  beforeAll(async () => {
    remotePort = await freePort();
    proxy = await TcpProxy.start(remotePort);
    proxy.setRule((line) => {
      if (line.includes('/things?') && /[?&]watch=(true|1)/i.test(line)) thingsWatches += 1;
      return undefined;
    });
    local = await startTestApp({ sources: [{ name: 'remote', kind: 'kcp', kubeconfig: kubeconfigFor(proxy.url) }] });
  });
  afterAll(async () => {
    await local?.stop();
    await proxy?.close();
    await remote?.stop();
  });

  it('case 1: while the remote is down, readiness names it and the embedded source still replicates', async () => {
    await eventually(async () => {
      const ready = await readyz(local);
      expect(ready.status).toBe(503);
      expect(ready.text).toMatch(/\[-\]source:remote failed: .+/);
      expect(ready.text).toContain('[+]source:embedded ok');
    });
    await seed(local.clusterUrl('root'));
    await request('POST', `${local.clusterUrl('root')}/apis/remote.example.com/v1/things`, { metadata: { name: 'local-1' } });
    await eventually(async () => expect((await cachedObjects(local.url, '', 'embedded', 'root')).map((c) => c.metadata.name)).toEqual(['v1.things.remote.example.com.local-1']));
  });

  it('case 2: when the remote comes up, its objects are replicated under its shard and readiness passes', async () => {
    remote = await startTestApp({ port: remotePort, watch: { timeoutSeconds: 1 } });
    const base = remote.clusterUrl('root');
    await seed(base);
    for (let i = 0; i < 5; i++) await request('POST', `${base}/apis/remote.example.com/v1/things`, { metadata: { name: `remote-${i}` } });
    await eventually(async () => {
      expect(await cachedObjects(local.url, '', 'remote', 'root')).toHaveLength(5);
      expect((await readyz(local)).status).toBe(200);
    });
  });

  it('case 3: with watch streams ended every second during writes, the cache ends equal to the source', async () => {
    const things = `${remote!.clusterUrl('root')}/apis/remote.example.com/v1/things`;
    // Writes in rounds; after each round the test waits until the remote has ended the watch of
    // things and the local cachegate has watched again, so the writes straddle several streams.
    for (let round = 0, i = 0; round < 4; round++) {
      const watches = thingsWatches;
      for (const end = i + 12; i < end; i++) {
        await request('POST', things, { metadata: { name: `churn-${i}` }, spec: { i } });
        if (i % 3 === 0) await request('PATCH', `${things}/remote-${i % 5}`, { spec: { touched: i } }, 'application/merge-patch+json');
        if (i % 4 === 1) await request('DELETE', `${things}/churn-${i - 1}`);
      }
      await eventually(() => expect(thingsWatches).toBeGreaterThan(watches));
    }
    await eventually(async () => {
      const source = (await request('GET', things)).body.items as Array<{ metadata: { name: string; resourceVersion: string } }>;
      const copies = await cachedObjects(local.url, '', 'remote', 'root');
      const want = source.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
      const got = copies.map((c) => `${c.spec.raw.metadata.name}@${c.metadata.annotations['cache.kcp.io/original-resource-version']}`).sort();
      expect(got).toEqual(want);
    });
  });
});
