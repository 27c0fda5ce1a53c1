// Changing a ClusterCachedResource's spec, and reading the cache with kubectl.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../../src/cachedobjects/cached-object-resource.js';
import { cacheLocation } from '../../src/cachedobjects/cache-location.js';
import { crd, eventually, request } from '../helpers/kube-http.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { CCRS, cachedObjects, ccr, namesOf } from '../helpers/replication.js';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const INSTANCES = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';

describe('changes to a ClusterCachedResource', () => {
  let app: TestApp;
  let root: string;

  beforeAll(async () => {
    app = await startTestApp();
    root = app.clusterUrl('root');
    await request('POST', `${root}${CRDS}`, crd({ group: 'machines.svm.io', plural: 'instances', kind: 'Instance' }));
    const instances = `${root}/apis/machines.svm.io/v1alpha1/instances`;
    for (const [name, tier] of [['web-1', 'web'], ['web-2', 'web'], ['db-1', 'db']] as const) {
      await request('POST', instances, { metadata: { name, labels: { tier, 'app.kubernetes.io/part-of': 'instances' } } });
    }
    await request('POST', `${root}/api/v1/namespaces/default/configmaps`, { metadata: { name: 'cm-1' } });
    await request('POST', `${root}/api/v1/namespaces/default/secrets`, { metadata: { name: 'secret-1' }, stringData: { a: 'b' } });
  });
  afterAll(async () => app?.stop());

  it('case 1: changing the label selector re-evaluates every object', async () => {
    await request('POST', `${root}${CCRS}`, ccr('instances', INSTANCES, { tier: 'web' }));
    await eventually(async () => expect(namesOf(await cachedObjects(app.url, '', 'embedded', 'root'))).toEqual([`${SCHEMA}.web-1`, `${SCHEMA}.web-2`]));
    const patched = await request('PATCH', `${root}${CCRS}/instances`, { spec: { labelSelector: { matchLabels: { tier: 'db' } } } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    await eventually(async () => {
      expect(namesOf(await cachedObjects(app.url, '', 'embedded', 'root'))).toEqual([`${SCHEMA}.db-1`]);
      expect((await request('GET', `${root}${CCRS}/instances`)).body.status.resourceCounts).toEqual({ local: 1, cache: 1 });
    });
  });

  it('case 2: matchExpressions are honoured', async () => {
    await request('PATCH', `${root}${CCRS}/instances`, {
      spec: { labelSelector: { matchLabels: null, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'db'] }] } },
    }, 'application/merge-patch+json');
    await eventually(async () => expect(await cachedObjects(app.url, '', 'embedded', 'root')).toHaveLength(3));
  });

  it('case 3: changing the GVR stops the old replication and purges its copies', async () => {
    await request('POST', `${root}${CCRS}`, ccr('core', { group: '', version: 'v1', resource: 'configmaps' }));
    await eventually(async () => expect(namesOf(await cachedObjects(app.url, '?labelSelector=cache.kcp.io/object-group%3Dcore'))).toEqual(['v1.configmaps.core.default.cm-1']));
    await request('PATCH', `${root}${CCRS}/core`, { spec: { resource: 'secrets' } }, 'application/merge-patch+json');
    // Only namespace default: the secrets of kcp-system (identity secrets) are replicated too.
    const inDefault = '?labelSelector=cache.kcp.io/object-group%3Dcore,cache.kcp.io/object-original-namespace%3Ddefault';
    await eventually(async () => {
      expect(namesOf(await cachedObjects(app.url, inDefault))).toEqual(['v1.secrets.core.default.secret-1']);
      const status = (await request('GET', `${root}${CCRS}/core`)).body;
      expect(status.metadata.annotations['cache.kcp.io/resource-kind']).toBe('Secret');
      const secrets = (await request('GET', `${root}/api/v1/secrets`)).body.items.length;
      expect(status.status.resourceCounts).toEqual({ local: secrets, cache: secrets });
    });
  });

  it('case 4: kubectl lists CachedObjects through the cache API with a label selector', async () => {
    const kubectl = kubectlFor(`${app.url}/services/cache/shards/*/clusters/*`);
    const out = await kubectl.ok(['get', 'cachedobjects', '-l', `cache.kcp.io/object-schema=${SCHEMA}`]);
    expect(out.split('\n')[0]).toMatch(/^NAME\s+AGE$/);
    expect(out.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[0]).sort()).toEqual([`${SCHEMA}.db-1`, `${SCHEMA}.web-1`, `${SCHEMA}.web-2`]);
    const yaml = await kubectl.ok(['get', 'cachedobject', `${SCHEMA}.web-1`, '-o', 'yaml']);
    expect(yaml).toContain('kind: CachedObject');
    expect(yaml).toContain('cache.kcp.io/object-original-name: web-1');
    const refused = await kubectl.run(['delete', 'cachedobject', `${SCHEMA}.web-1`]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('MethodNotAllowed');
  });

  it('case 5: a CCR created before its CRD reports ResourceNotFound, then replicates once the CRD appears', async () => {
    const later = app.clusterUrl('later');
    await request('POST', `${later}${CCRS}`, ccr('gadgets', { group: 'late.example.com', version: 'v1', resource: 'gadgets' }));
    await eventually(async () => {
      const condition = (await request('GET', `${later}${CCRS}/gadgets`)).body.status?.conditions?.find((c: { type: string }) => c.type === 'ResourceValid');
      expect(condition).toMatchObject({ status: 'False', reason: 'ResourceNotFound' });
    });
    await request('POST', `${later}${CRDS}`, crd({ group: 'late.example.com', plural: 'gadgets', kind: 'Gadget', versions: ['v1'] }));
    await request('POST', `${later}/apis/late.example.com/v1/gadgets`, { metadata: { name: 'g1' } });
    await eventually(async () => {
      expect(namesOf(await cachedObjects(app.url, '', 'embedded', 'later'))).toEqual(['v1.gadgets.late.example.com.g1']);
      expect((await request('GET', `${later}${CCRS}/gadgets`)).body.status.phase).toBe('Ready');
    });
  });

  it('case 6: deleting a Duplicate keeps the winner\'s copies; deleting the winner hands the resource to the Duplicate', async () => {
    const dup = app.clusterUrl('dups');
    await request('POST', `${dup}${CRDS}`, crd({ group: 'machines.svm.io', plural: 'instances', kind: 'Instance' }));
    for (const name of ['a', 'b']) await request('POST', `${dup}/apis/machines.svm.io/v1alpha1/instances`, { metadata: { name } });
    await request('POST', `${dup}${CCRS}`, ccr('first', INSTANCES));
    await eventually(async () => expect(await cachedObjects(app.url, '', 'embedded', 'dups')).toHaveLength(2));
    await request('POST', `${dup}${CCRS}`, ccr('second', INSTANCES));
    await request('POST', `${dup}${CCRS}`, ccr('third', INSTANCES));
    await eventually(async () => {
      const reason = (await request('GET', `${dup}${CCRS}/third`)).body.status?.conditions?.find((c: { type: string }) => c.type === 'ResourceValid')?.reason;
      expect(reason).toBe('Duplicate');
    });
    const before = namesOf(await cachedObjects(app.url, '', 'embedded', 'dups'));
    const cacheVersion = (await request('GET', `${app.url}/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects?limit=1`)).body.metadata.resourceVersion;
    await request('DELETE', `${dup}${CCRS}/third`);
    await eventually(async () => expect((await request('GET', `${dup}${CCRS}/third`)).status).toBe(404));
    // The CCR is gone only after its purge, so every change of the cache since the delete began is
    // in the cache's event window now: a watch from before it replays them all at once.
    const watch = await fetch(`${app.url}/services/cache/shards/embedded/clusters/dups/apis/cache.kcp.io/v1alpha1/cachedobjects?watch=true&resourceVersion=${cacheVersion}&timeoutSeconds=1`);
    const events = (await watch.text()).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).type as string);
    expect(events).not.toContain('DELETED');
    expect(namesOf(await cachedObjects(app.url, '', 'embedded', 'dups'))).toEqual(before);
    await request('DELETE', `${dup}${CCRS}/first`);
    await eventually(async () => {
      const second = (await request('GET', `${dup}${CCRS}/second`)).body;
      expect(second.status.phase).toBe('Ready');
      expect(second.status.resourceCounts).toEqual({ local: 2, cache: 2 });
      expect(await cachedObjects(app.url, '', 'embedded', 'dups')).toHaveLength(2);
    });
  });

  it('case 7: a copy whose original-name label is forged is repaired, not deleted', async () => {
    const cache = app.app.stores.cache;
    const key = { cluster: cacheLocation('embedded', 'root'), group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE, namespace: '', name: `${SCHEMA}.db-1` };
    const copy = await cache.get(key);
    await cache.update(key, { ...copy, metadata: { ...copy.metadata, labels: { ...copy.metadata.labels, 'cache.kcp.io/object-original-name': 'ghost' } } });
    await eventually(async () => {
      const repaired = await cache.lookup(key);
      expect(repaired?.metadata.labels?.['cache.kcp.io/object-original-name']).toBe('db-1');
    });
  });
});
