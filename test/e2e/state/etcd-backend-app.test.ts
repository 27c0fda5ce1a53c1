// cachegate on a real etcd: its objects live under the configured prefix in kube-apiserver's
// layout; when etcd stops answering, writes answer 503 with Retry-After while reads that ask for
// what the process holds (resourceVersion=0) go on from memory, consistent reads time out (504),
// and readiness names the backend; when etcd is back, writes work again and changes made
// meanwhile by another client of the same keys reach the watch cache.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3 } from 'etcd3';
import { eventually, request } from '../../helpers/kube-http.js';
import { startEtcd } from '../../helpers/etcd-cluster.js';
import type { EtcdCluster } from '../../helpers/etcd-cluster.js';
import { readyz, startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const PREFIX = '/cachegate-e2e';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

describe('cachegate on etcd', () => {
  let etcd: EtcdCluster;
  let app: TestApp;
  let client: Etcd3;

  beforeAll(async () => {
    etcd = await startEtcd({ members: 1 });
    client = new Etcd3({ hosts: [...etcd.endpoints] });
    app = await startTestApp({ store: { backend: 'etcd', etcd: { endpoints: etcd.endpoints, prefix: PREFIX, compactIntervalMinutes: 0 } } });
  });
  afterAll(async () => {
    await app?.stop();
    client?.close();
    await etcd?.stop();
  });

  it('case 1: an object written through the embedded source is stored under the prefix, its revision as resourceVersion', async () => {
    const res = await request('POST', `${app.clusterUrl('root')}${CONFIGMAPS}`, { metadata: { name: 'one' }, data: { a: 'b' } });
    expect(res.status).toBe(201);
    const stored = await client.get(`${PREFIX}/source/core/configmaps/root/default/one`).exec();
    expect(stored.kvs).toHaveLength(1);
    expect(String(stored.kvs[0]?.mod_revision)).toBe(res.body.metadata.resourceVersion);
    const value = JSON.parse(stored.kvs[0]?.value.toString() ?? '{}') as { data?: unknown; metadata?: Record<string, unknown> };
    expect(value.data).toEqual({ a: 'b' });
    expect(value.metadata?.['resourceVersion']).toBeUndefined();
    await eventually(async () => expect((await readyz(app)).text).toContain('[+]backend:etcd ok'));
  });

  it('case 2: with etcd stopped, a write is 503 with Retry-After, reads from memory are served, a consistent read is 504, and readiness names etcd', async () => {
    const member = etcd.members[0]!;
    await member.kill('SIGSTOP');
    try {
      const write = await request('POST', `${app.clusterUrl('root')}${CONFIGMAPS}`, { metadata: { name: 'while-down' } });
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).toBe('1');
      expect(write.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', code: 503 });
      // resourceVersion=0 reads what this process holds, as kube-apiserver serves it from its cache.
      const read = await request('GET', `${app.clusterUrl('root')}${CONFIGMAPS}/one?resourceVersion=0`);
      expect(read.status).toBe(200);
      const list = await request('GET', `${app.clusterUrl('root')}${CONFIGMAPS}?resourceVersion=0`);
      expect(list.status).toBe(200);
      // With no resourceVersion a read is consistent: it needs etcd's revision, so it times out.
      const consistent = await request('GET', `${app.clusterUrl('root')}${CONFIGMAPS}/one`);
      expect(consistent.status).toBe(504);
      expect(consistent.headers.get('retry-after')).toBe('1');
      await eventually(async () => {
        const ready = await readyz(app);
        expect(ready.status).toBe(503);
        expect(ready.text).toMatch(/\[-\]backend:etcd failed: .*etcd/);
      });
    } finally {
      await member.kill('SIGCONT');
    }
  });

  it('case 3: once etcd answers again, writes work, and a change another client writes to the same keys reaches the cache', async () => {
    const foreign = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-etcdctl', namespace: 'default', uid: '00000000-0000-4000-8000-000000000001', creationTimestamp: '2026-12-01T00:00:00Z' }, data: { via: 'etcd' } };
    await eventually(async () => {
      await client.put(`${PREFIX}/source/core/configmaps/root/default/from-etcdctl`).value(JSON.stringify(foreign)).exec();
    });
    await eventually(async () => {
      const res = await request('POST', `${app.clusterUrl('root')}${CONFIGMAPS}`, { metadata: { name: `after-${Date.now()}` } });
      expect(res.status).toBe(201);
    });
    await eventually(async () => {
      const read = await request('GET', `${app.clusterUrl('root')}${CONFIGMAPS}/from-etcdctl`);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual({ via: 'etcd' });
      expect((await readyz(app)).status).toBe(200);
    });
  });
});
