// Read-your-writes on any replica, with no token: three cachegate apps on one etcd, each write
// through one of them (chosen at random) followed at once by a plain read, with no parameter,
// through another. Reads are consistent by default on etcd, and the overlay lives in etcd, so
// the reader holds every write any replica answered before the read began.
//   case 1: 201 mixed writes (create, patch, delete) with ConfigMaps replicated: 0 misses, 0 stale
//   case 2: the same writes with the overlay off and nothing replicating ConfigMaps yet: every read
//           misses (what the overlay is for), then with the overlay on: none does. (With
//           replication live, a consistent read alone often finds the copy: its wait ends at the
//           cache's next change, the copy itself when replication is quick. The overlay makes it
//           hold whatever the lag; here replication is held back entirely.)
//           (every read there waits on a cache whose watch is idle while other keys move etcd's
//           revision: a barrier write moves it, so none times out)
//   case 3: GraphQL reads consistently too: a ConfigMap created through one replica is the answer
//           of an `object` query on another at once; and a CachedObject the leader's cache API
//           shows is in a follower's kube list asked with no resourceVersion
//   case 4: etcd stopped (SIGSTOP): a consistent read answers 504 with Retry-After once
//           ha.consistentReadWaitMs has passed; consistent=false answers from the replica's cache

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd } from '../../helpers/etcd-cluster.js';
import type { EtcdCluster } from '../../helpers/etcd-cluster.js';
import { DEADLINE_MS, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, cachedObjects, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { gql } from '../graphql/graphql-http.js';
import { pick, writeThenRead } from '../../helpers/read-your-writes.js';

const OBJECTS = '/v1/objects/core/v1/configmaps';
/** WAIT_MS bounds a consistent read: far above a loaded machine's etcd round trip. */
const WAIT_MS = 5000;
const OVERLAY = (enabled: boolean) => ({ cache: { enabled, gvks: ['v1/ConfigMap'], ttl: '2m' } });

async function startReplicas(etcd: EtcdCluster, prefix: string, overlay: boolean): Promise<TestApp[]> {
  const fields = { store: { backend: 'etcd', etcd: { endpoints: etcd.endpoints, prefix, compactIntervalMinutes: 0 } }, ha: { leaseSeconds: 2, consistentReadWaitMs: WAIT_MS }, ...OVERLAY(overlay) };
  const apps: TestApp[] = [];
  for (let i = 0; i < 3; i++) apps.push(await startTestApp(fields));
  return apps;
}

describe('read-your-writes on any replica', () => {
  let etcd: EtcdCluster;
  const started: TestApp[] = [];

  beforeAll(async () => {
    etcd = await startEtcd({ members: 1 });
  }, DEADLINE_MS);

  afterAll(async () => {
    await Promise.all(started.map((app) => app.stop()));
    await etcd?.stop();
  });

  it('case 1: 201 mixed writes through random replicas, each read at once through another: 0 misses, 0 stale', async () => {
    const apps = await startReplicas(etcd, '/ryw-live', true);
    started.push(...apps);
    const [first] = apps as [TestApp];
    expect((await request('POST', `${first.url}/clusters/root${CCRS}`, ccr('configmaps', { group: '', version: 'v1', resource: 'configmaps' }))).status).toBe(201);
    await request('POST', `${first.url}/clusters/root/api/v1/namespaces/default/configmaps`, { metadata: { name: 'seed' } });
    for (const app of apps) {
      await eventually(async () => expect((await request('GET', `${app.url}${OBJECTS}/seed?cluster=root&namespace=default`)).headers.get('x-cachegate-source')).toBe('cache'), DEADLINE_MS);
    }
    expect(await writeThenRead(apps, 'live', 201)).toEqual({ misses: [], stale: [] });
  }, 4 * DEADLINE_MS);

  it('case 2: with nothing replicated yet, the overlay off misses every write and the overlay on none', async () => {
    const off = await startReplicas(etcd, '/ryw-off', false);
    started.push(...off);
    const missed = await writeThenRead(off, 'off', 30);
    expect(missed.misses).toHaveLength(20);
    const on = await startReplicas(etcd, '/ryw-on', true);
    started.push(...on);
    expect(await writeThenRead(on, 'on', 30)).toEqual({ misses: [], stale: [] });
  }, 4 * DEADLINE_MS);

  it('case 3: GraphQL and the kube-compatible cache API read consistently too', async () => {
    const apps = started.slice(0, 3);
    const query = 'query($name: String!) { object(group: "core", version: "v1", resource: "configmaps", name: $name, namespace: "default", cluster: "root") }';
    for (let i = 0; i < 10; i++) {
      const { writer, reader } = pick(apps);
      const name = `graphql-${i}`;
      const created = await request('POST', `${writer.url}${OBJECTS}?cluster=root&namespace=default`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
      expect(created.status).toBe(201);
      const read = await gql(reader.url, query, { name });
      expect(read.body.errors).toBeUndefined();
      expect(read.body.data.object?.metadata.uid).toBe(created.body.metadata.uid);
    }
    const leader = await eventually(async () => {
      const leaders = [];
      for (const app of apps) if ((await (await fetch(`${app.url}/metrics`)).text()).includes('\ncachegate_leader 1')) leaders.push(app);
      expect(leaders).toHaveLength(1);
      return leaders[0] as TestApp;
    }, DEADLINE_MS);
    const follower = apps.find((app) => app !== leader) as TestApp;
    await request('POST', `${leader.url}/clusters/root/api/v1/namespaces/default/configmaps`, { metadata: { name: 'kube-list' } });
    await eventually(async () => expect((await cachedObjects(leader.url)).map((copy) => copy.spec.raw.metadata.name)).toContain('kube-list'), DEADLINE_MS);
    expect((await cachedObjects(follower.url)).map((copy) => copy.spec.raw.metadata.name)).toContain('kube-list');
  }, 4 * DEADLINE_MS);

  it('case 4: with etcd stopped, a consistent read is 504 with Retry-After and consistent=false answers', async () => {
    const app = started[0] as TestApp;
    const member = etcd.members[0]!;
    await member.kill('SIGSTOP');
    try {
      const consistent = await request('GET', `${app.url}${OBJECTS}/seed?cluster=root&namespace=default`);
      expect(consistent.status).toBe(504);
      expect(consistent.headers.get('retry-after')).toBe('1');
      expect(consistent.body).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
      expect(consistent.body.message).toContain('consistent=false');
      const current = await request('GET', `${app.url}${OBJECTS}/seed?cluster=root&namespace=default&consistent=false`);
      expect(current.status).toBe(200);
      expect(current.body.metadata.name).toBe('seed');
    } finally {
      await member.kill('SIGCONT');
    }
  }, DEADLINE_MS);
});
