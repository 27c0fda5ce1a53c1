// A cachegate stopped and started again on the same state (the local backend's data directory, or
// the same etcd prefix, where it is a replica that leads from its start): the embedded source
// keeps its CRDs, ClusterCachedResources and objects; the cache answers with its copies at once;
// its first ready answer comes once the sources are listed again and only the differences are
// written (a copy whose original went away while it was down is deleted, a changed original is
// copied again, every other copy keeps its resourceVersion).

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd } from '../../helpers/etcd-cluster.js';
import type { EtcdCluster } from '../../helpers/etcd-cluster.js';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { kubeconfigFor } from '../../helpers/kubeconfig.js';
import { CCRS, cachedObjects, ccr } from '../../helpers/replication.js';
import type { CachedObjectJson } from '../../helpers/replication.js';
import { readyz, startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'state.example.com', version: 'v1', resource: 'things' };
const THINGS = `/apis/${GVR.group}/${GVR.version}/${GVR.resource}`;
const COUNT = 40;

async function seed(base: string, prefix: string): Promise<void> {
  expect((await request('POST', `${base}${CRDS}`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Thing', versions: [GVR.version] }))).status).toBe(201);
  expect((await request('POST', `${base}${CCRS}`, ccr('things', GVR))).status).toBe(201);
  for (let i = 0; i < COUNT; i++) {
    expect((await request('POST', `${base}${THINGS}`, { metadata: { name: `${prefix}-${i}` }, spec: { i } })).status).toBe(201);
  }
}

function versions(copies: readonly CachedObjectJson[]): Map<string, string> {
  return new Map(copies.map((c) => [c.metadata.name, String((c.metadata as { resourceVersion?: string }).resourceVersion)]));
}

describe.each(['local', 'etcd'] as const)('restart on the %s backend', (backend) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cachegate-restart-'));
  const prefix = `/restart-${randomUUID().slice(0, 8)}`;
  let etcd: EtcdCluster | undefined;
  let remote: TestApp;
  let app: TestApp | undefined;
  /** firstRun is every copy's resourceVersion before the restart (case 2 checks the restarted app serves these). */
  let firstRun = new Map<string, string>();
  const store = () => (backend === 'local'
    ? { backend, dataDir, fsync: false }
    : { backend, etcd: { endpoints: etcd?.endpoints, prefix, compactIntervalMinutes: 0 } });
  const config = () => ({ store: store(), sources: [{ name: 'remote', kind: 'kcp', kubeconfig: kubeconfigFor(remote.url) }] });

  beforeAll(async () => {
    if (backend === 'etcd') etcd = await startEtcd({ members: 1 });
    remote = await startTestApp();
  });
  afterAll(async () => {
    await app?.stop();
    await remote?.stop();
    await etcd?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('case 1: the first run replicates the embedded and the remote source', async () => {
    app = await startTestApp(config());
    await seed(app.clusterUrl('root'), 'local');
    await seed(remote.clusterUrl('root'), 'remote');
    await eventually(async () => {
      expect(await cachedObjects(app!.url, '', 'embedded', 'root')).toHaveLength(COUNT);
      expect(await cachedObjects(app!.url, '', 'remote', 'root')).toHaveLength(COUNT);
      expect((await readyz(app!)).status).toBe(200);
    });
  });

  it('case 2: after a restart the copies are served at once, as they were, and the source kept its objects', async () => {
    const before = versions(await cachedObjects(app!.url));
    firstRun = before;
    await app!.stop();
    // While it is down, the remote source changes: one original deleted, one changed.
    expect((await request('DELETE', `${remote.clusterUrl('root')}${THINGS}/remote-3`)).status).toBe(200);
    expect((await request('PATCH', `${remote.clusterUrl('root')}${THINGS}/remote-4`, { spec: { i: 'changed' } }, 'application/merge-patch+json')).status).toBe(200);

    app = await startTestApp(config());
    // The embedded source's CRD is served again, with the objects written before the restart.
    const things = await request('GET', `${app.clusterUrl('root')}${THINGS}`);
    expect(things.status).toBe(200);
    expect(things.body.items).toHaveLength(COUNT);
    // Every copy of the first run answers at once, as it was. The remote source may have been
    // listed again already (its list runs while the state loads), so the two differences may be
    // written by now; nothing else is.
    const served = versions(await cachedObjects(app.url));
    const differences = new Set(['v1.things.state.example.com.remote-3', 'v1.things.state.example.com.remote-4']);
    for (const [name, rv] of before) {
      if (!differences.has(name)) expect(served.get(name), name).toBe(rv);
    }
    expect([...served.keys()].filter((name) => !before.has(name))).toEqual([]);
  });

  it('case 3: at the first ready answer the differences are written, and only they', async () => {
    // Compared with the first run's versions: the restarted app may have reconciled already.
    const before = firstRun;
    await eventually(async () => expect((await readyz(app!)).status).toBe(200));
    const remoteCopies = await cachedObjects(app!.url, '', 'remote', 'root');
    expect(remoteCopies.map((c) => c.spec.raw.metadata.name)).not.toContain('remote-3');
    expect(remoteCopies.find((c) => c.spec.raw.metadata.name === 'remote-4')?.spec.raw.spec).toEqual({ i: 'changed' });
    const after = versions(await cachedObjects(app!.url));
    const rewritten = [...after].filter(([name, rv]) => before.get(name) !== rv).map(([name]) => name);
    expect(rewritten).toEqual(['v1.things.state.example.com.remote-4']);
    expect(after.size).toBe(2 * COUNT - 1);
  });

  it('case 4: it replicates new writes after the restart', async () => {
    expect((await request('POST', `${app!.clusterUrl('root')}${THINGS}`, { metadata: { name: 'after-restart' } })).status).toBe(201);
    await eventually(async () => {
      const names = (await cachedObjects(app!.url, '', 'embedded', 'root')).map((c) => c.spec.raw.metadata.name);
      expect(names).toContain('after-restart');
    });
  });
});
