// Replication end to end: ClusterCachedResources in the embedded source, CachedObjects in the
// cache, observed through the kube-compatible APIs over HTTP (kcp's own scenario first).

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../../src/cachedobjects/cached-object-resource.js';
import { cacheLocation } from '../../src/cachedobjects/cache-location.js';
import { crd, eventually, readWatchLines, request } from '../helpers/kube-http.js';
import { CCRS, cachedObjects, ccr, namesOf } from '../helpers/replication.js';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const INSTANCES_GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const PART_OF = { 'app.kubernetes.io/part-of': 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';

describe('replication of ClusterCachedResources into CachedObjects', () => {
  let app: TestApp;
  let root: string;
  let instances: string;

  beforeAll(async () => {
    app = await startTestApp();
    root = app.clusterUrl('root');
    instances = `${root}/apis/machines.svm.io/v1alpha1/instances`;
    expect((await request('POST', `${root}${CRDS}`, crd({ group: 'machines.svm.io', plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    for (let i = 1; i <= 7; i++) {
      await request('POST', instances, { metadata: { name: `web-server-${i}`, labels: { ...PART_OF, tier: 'web' } }, spec: { size: i } });
    }
    await request('POST', instances, { metadata: { name: 'unrelated-1' }, spec: { size: 0 } });
    expect((await request('POST', `${root}${CCRS}`, ccr('instances', INSTANCES_GVR, PART_OF))).status).toBe(201);
  });
  afterAll(async () => app?.stop());

  const ccrStatus = async (name = 'instances', cluster = 'root') => (await request('GET', `${app.clusterUrl(cluster)}${CCRS}/${name}`)).body;

  it('case 1: 7 of 8 objects are replicated, named and labelled as the seed shows, with spec.raw equal to the source', async () => {
    const copies = await eventually(async () => {
      const items = await cachedObjects(app.url, `?labelSelector=cache.kcp.io/object-schema%3D${SCHEMA}`);
      expect(items).toHaveLength(7);
      return items;
    });
    expect(namesOf(copies)).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => `${SCHEMA}.web-server-${i}`));
    const first = copies.find((c) => c['metadata'].name === `${SCHEMA}.web-server-1`)!;
    expect(first['kind']).toBe('CachedObject');
    expect(first['metadata'].labels).toEqual({
      ...PART_OF, tier: 'web',
      'cache.kcp.io/object-schema': SCHEMA,
      'cache.kcp.io/object-group': 'machines.svm.io',
      'cache.kcp.io/object-version': 'v1alpha1',
      'cache.kcp.io/object-resource': 'instances',
      'cache.kcp.io/object-original-name': 'web-server-1',
      'cache.kcp.io/object-original-namespace': '',
    });
    const source = (await request('GET', `${instances}/web-server-1`)).body;
    expect(first['spec'].raw).toEqual(source);
    expect(first['metadata'].annotations).toMatchObject({
      'kcp.io/cluster': 'root',
      'kcp.io/shard': 'embedded',
      'cache.kcp.io/original-resource-version': source.metadata.resourceVersion,
      'cache.kcp.io/original-resource-UID': source.metadata.uid,
    });
  });

  it('case 2: the CCR is Ready with finalizer, annotations, identity secret, identityHash and all conditions True', async () => {
    const status = await eventually(async () => {
      const obj = await ccrStatus();
      expect(obj.status?.resourceCounts).toEqual({ local: 7, cache: 7 });
      expect(obj.status?.phase).toBe('Ready');
      return obj;
    });
    expect(status.metadata.finalizers).toContain('cache.kcp.io/clustercachedresource');
    expect(status.metadata.annotations).toMatchObject({ 'cache.kcp.io/resource-kind': 'Instance', 'cache.kcp.io/resource-scope': 'Cluster' });
    expect(status.spec.identity.secretRef).toEqual({ namespace: 'kcp-system', name: 'instances' });
    const secret = (await request('GET', `${root}/api/v1/namespaces/kcp-system/secrets/instances`)).body;
    const key = Buffer.from(secret.data.key, 'base64').toString('utf8');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(status.status.identityHash).toBe(createHash('sha256').update(key).digest('hex'));
    const conditions = Object.fromEntries(status.status.conditions.map((c: { type: string; status: string }) => [c.type, c.status]));
    expect(conditions).toEqual({ ResourceValid: 'True', IdentityValid: 'True', ReplicationStarted: 'True' });
  });

  it('case 3: deleting 2 sources leaves 5 copies and counts 5/5', async () => {
    await request('DELETE', `${instances}/web-server-6`);
    await request('DELETE', `${instances}/web-server-7`);
    await eventually(async () => {
      expect(await cachedObjects(app.url, `?labelSelector=cache.kcp.io/object-schema%3D${SCHEMA}`)).toHaveLength(5);
      expect((await ccrStatus()).status.resourceCounts).toEqual({ local: 5, cache: 5 });
    });
  });

  it('case 4: an update replicates; removing the matching label removes the copy', async () => {
    await request('PATCH', `${instances}/web-server-2`, { spec: { size: 99 } }, 'application/merge-patch+json');
    await eventually(async () => {
      const copy = (await cachedObjects(app.url, '', 'embedded', 'root')).find((c) => c['metadata'].name === `${SCHEMA}.web-server-2`);
      expect(copy?.['spec'].raw.spec.size).toBe(99);
    });
    await request('PATCH', `${instances}/web-server-3`, { metadata: { labels: { 'app.kubernetes.io/part-of': null } } }, 'application/merge-patch+json');
    await eventually(async () => {
      expect(namesOf(await cachedObjects(app.url, '', 'embedded', 'root'))).not.toContain(`${SCHEMA}.web-server-3`);
      expect((await ccrStatus()).status.resourceCounts).toEqual({ local: 4, cache: 4 });
    });
  });

  it('case 5: a copy deleted or edited behind the controller is restored', async () => {
    const cache = app.app.stores.cache;
    const key = { cluster: cacheLocation('embedded', 'root'), group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE, namespace: '' };
    await cache.delete({ ...key, name: `${SCHEMA}.web-server-4` }, { ignoreFinalizers: true });
    const edited = await cache.get({ ...key, name: `${SCHEMA}.web-server-5` });
    await cache.update({ ...key, name: `${SCHEMA}.web-server-5` }, { ...edited, metadata: { ...edited.metadata, labels: { tampered: 'yes' } } });
    await eventually(async () => {
      const copies = await cachedObjects(app.url, '', 'embedded', 'root');
      expect(namesOf(copies)).toContain(`${SCHEMA}.web-server-4`);
      const five = copies.find((c) => c['metadata'].name === `${SCHEMA}.web-server-5`);
      expect(five?.['metadata'].labels['cache.kcp.io/object-original-name']).toBe('web-server-5');
      expect(five?.['metadata'].labels['tampered']).toBeUndefined();
    });
  });

  it('case 6: a namespaced core resource replicates as v1.configmaps.core.<ns>.<name> with group label core', async () => {
    await request('POST', `${root}/api/v1/namespaces`, { metadata: { name: 'team-a' } });
    await request('POST', `${root}/api/v1/namespaces/team-a/configmaps`, { metadata: { name: 'settings', labels: { cache: 'yes' } }, data: { mode: 'fast' } });
    await request('POST', `${root}${CCRS}`, ccr('configmaps', { group: '', version: 'v1', resource: 'configmaps' }, { cache: 'yes' }));
    const copy = await eventually(async () => {
      const items = await cachedObjects(app.url, '?labelSelector=cache.kcp.io/object-schema%3Dv1.configmaps.core');
      expect(items).toHaveLength(1);
      return items[0]!;
    });
    expect(copy['metadata'].name).toBe('v1.configmaps.core.team-a.settings');
    expect(copy['metadata'].labels).toMatchObject({ 'cache.kcp.io/object-group': 'core', 'cache.kcp.io/object-original-namespace': 'team-a' });
    expect(copy['spec'].raw.data).toEqual({ mode: 'fast' });
  });

  it('case 7: the same object name in two logical clusters gives two CachedObjects', async () => {
    const other = app.clusterUrl('other');
    await request('POST', `${other}${CRDS}`, crd({ group: 'machines.svm.io', plural: 'instances', kind: 'Instance' }));
    await request('POST', `${other}/apis/machines.svm.io/v1alpha1/instances`, { metadata: { name: 'web-server-1', labels: PART_OF } });
    await request('POST', `${other}${CCRS}`, ccr('instances', INSTANCES_GVR, PART_OF));
    await eventually(async () => {
      const copies = await cachedObjects(app.url, `?fieldSelector=metadata.name%3D${SCHEMA}.web-server-1`);
      expect(copies.map((c) => c['metadata'].annotations['kcp.io/cluster']).sort()).toEqual(['other', 'root']);
    });
  });

  it('case 8: a second CCR for the same resource in the same cluster is a Duplicate and replicates nothing', async () => {
    await request('POST', `${root}${CCRS}`, ccr('instances-again', INSTANCES_GVR));
    await eventually(async () => {
      const condition = (await ccrStatus('instances-again')).status?.conditions?.find((c: { type: string }) => c.type === 'ResourceValid');
      expect(condition).toMatchObject({ status: 'False', reason: 'Duplicate' });
    });
    // Without a selector it would copy unrelated-1; as a duplicate it must not.
    expect(namesOf(await cachedObjects(app.url, '', 'embedded', 'root'))).not.toContain(`${SCHEMA}.unrelated-1`);
  });

  it('case 9: deleting a CCR shows Deleting then Deleted, purges its copies, and the CCR goes away', async () => {
    const before = await ccrStatus('configmaps');
    const res = await fetch(`${root}${CCRS}?watch=true&resourceVersion=${before.metadata.resourceVersion}&fieldSelector=metadata.name%3Dconfigmaps`);
    const events = readWatchLines(res, 20, 10_000, (e) => e.type === 'DELETED');
    await request('DELETE', `${root}${CCRS}/configmaps`);
    await eventually(async () => expect((await request('GET', `${root}${CCRS}/configmaps`)).status).toBe(404));
    const phases = (await events).map((e) => (e.object['status'] as { phase?: string } | undefined)?.phase);
    expect(phases).toContain('Deleting');
    expect(phases.indexOf('Deleting')).toBeLessThan(phases.indexOf('Deleted'));
    expect(await cachedObjects(app.url, '?labelSelector=cache.kcp.io/object-schema%3Dv1.configmaps.core')).toEqual([]);
  });

  it('case 10: a CCR whose CRD was deleted first is still deleted and purged', async () => {
    const other = app.clusterUrl('other');
    await eventually(async () => expect(await cachedObjects(app.url, '', 'embedded', 'other')).toHaveLength(1));
    expect((await request('DELETE', `${other}${CRDS}/instances.machines.svm.io`)).status).toBe(200);
    await request('DELETE', `${other}${CCRS}/instances`);
    await eventually(async () => {
      expect((await request('GET', `${other}${CCRS}/instances`)).status).toBe(404);
      expect(await cachedObjects(app.url, '', 'embedded', 'other')).toEqual([]);
    });
  });

  it('case 11: the cache API is read-only', async () => {
    const res = await request('POST', `${app.url}/services/cache/shards/embedded/clusters/root/apis/cache.kcp.io/v1alpha1/cachedobjects`, { metadata: { name: 'x' } });
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed' });
  });
});
