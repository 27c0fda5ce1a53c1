// The REST facade end to end: 12 replicated instances in the embedded
// source, read back through /v1 over HTTP, then the same name in a second logical cluster.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';
const NAMES = Array.from({ length: 12 }, (_, i) => `web-server-${i + 1}`);

interface Named {
  metadata: { name: string; resourceVersion?: string; labels?: Record<string, string> };
}

const namesOf = (items: Named[]): string[] => items.map((item) => item.metadata.name).sort();

describe('REST facade over 12 replicated instances', () => {
  let app: TestApp;
  let v1: string;
  let instances: string;

  beforeAll(async () => {
    app = await startTestApp();
    v1 = `${app.url}/v1`;
    const root = app.clusterUrl('root');
    instances = `${root}/apis/machines.svm.io/v1alpha1/instances`;
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    for (const [i, name] of NAMES.entries()) {
      expect((await request('POST', instances, { metadata: { name, labels: { n: String(i + 1) } }, spec: { size: i + 1 } })).status).toBe(201);
    }
    expect((await request('POST', `${root}${CCRS}`, ccr('instances', GVR))).status).toBe(201);
    await eventually(async () => {
      const res = await request('GET', `${v1}/schemas/${SCHEMA}/objects`);
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(12);
    });
  });
  afterAll(async () => app?.stop());

  it('case 1: GET /v1/objects/...?cluster=root returns the original with a quoted ETag and X-Cachegate-Source', async () => {
    const source = (await request('GET', `${instances}/web-server-1`)).body;
    const res = await request('GET', `${v1}/objects/machines.svm.io/v1alpha1/instances/web-server-1?cluster=root`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(source);
    expect(res.headers.get('etag')).toBe(`"${source.metadata.resourceVersion}"`);
    expect(res.headers.get('x-cachegate-source')).toBe('cache');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('case 2: If-None-Match with the current ETag is 304 without a body; a stale one gets the object', async () => {
    const url = `${v1}/objects/machines.svm.io/v1alpha1/instances/web-server-2?cluster=root`;
    const etag = (await request('GET', url)).headers.get('etag')!;
    const notModified = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    const stale = await fetch(url, { headers: { 'if-none-match': '"1"' } });
    expect(stale.status).toBe(200);
    expect(((await stale.json()) as Named).metadata.name).toBe('web-server-2');
  });

  it('case 3: leaving out cluster works while the name is unique', async () => {
    const res = await request('GET', `${v1}/objects/machines.svm.io/v1alpha1/instances/web-server-3`);
    expect(res.status).toBe(200);
    expect(res.body.metadata.name).toBe('web-server-3');
    expect(res.body.spec).toEqual({ size: 3 });
  });

  it('case 4: a missing object is a 404 NotFound Status', async () => {
    const res = await request('GET', `${v1}/objects/machines.svm.io/v1alpha1/instances/web-server-99?cluster=root`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
  });

  it('case 5: /v1/schemas/{schema}/objects returns the 12 originals, equal to the source objects', async () => {
    const res = await request('GET', `${v1}/schemas/${SCHEMA}/objects`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('ObjectList');
    expect(res.body.metadata.resourceVersion).toMatch(/^[0-9]+$/);
    expect(namesOf(res.body.items)).toEqual([...NAMES].sort());
    const sourceList = (await request('GET', instances)).body.items as Named[];
    const byName = new Map(sourceList.map((item) => [item.metadata.name, item]));
    for (const item of res.body.items as Named[]) expect(item).toEqual(byName.get(item.metadata.name));
  });

  it('case 6: labelSelector=n in (1,2,3) returns 3', async () => {
    const res = await request('GET', `${v1}/schemas/${SCHEMA}/objects?labelSelector=${encodeURIComponent('n in (1,2,3)')}`);
    expect(res.status).toBe(200);
    expect(namesOf(res.body.items)).toEqual(['web-server-1', 'web-server-2', 'web-server-3']);
  });

  it('case 7: limit=5 gives 3 complete pages (5, 5, 2) with no duplicates', async () => {
    const sizes: number[] = [];
    const remaining: Array<number | undefined> = [];
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const query = `limit=5${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
      const res = await request('GET', `${v1}/schemas/${SCHEMA}/objects?${query}`);
      expect(res.status).toBe(200);
      sizes.push(res.body.items.length);
      remaining.push(res.body.metadata.remainingItemCount);
      seen.push(...(res.body.items as Named[]).map((item) => item.metadata.name));
      token = res.body.metadata.continue;
    } while (token && sizes.length < 10);
    expect(sizes).toEqual([5, 5, 2]);
    expect(remaining).toEqual([7, 2, undefined]);
    expect(new Set(seen).size).toBe(12);
    expect([...seen].sort()).toEqual([...NAMES].sort());
  });

  it('case 8: /v1/cachedobjects lists CachedObjects with filters and paging', async () => {
    const res = await request('GET', `${v1}/cachedobjects?schema=${SCHEMA}&cluster=root&shard=embedded&labelSelector=${encodeURIComponent('n notin (1,2)')}&limit=4`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'CachedObjectList', apiVersion: 'cache.kcp.io/v1alpha1', metadata: { remainingItemCount: 6 } });
    expect(res.body.metadata.continue).toEqual(expect.any(String));
    expect(res.body.items).toHaveLength(4);
    for (const item of res.body.items) {
      expect(item.kind).toBe('CachedObject');
      expect(item.metadata.labels['cache.kcp.io/object-schema']).toBe(SCHEMA);
      expect(['1', '2']).not.toContain(item.spec.raw.metadata.labels.n);
    }
    const byName = await request('GET', `${v1}/cachedobjects?group=machines.svm.io&version=v1alpha1&resource=instances&name=web-server-7`);
    expect(byName.body.items.map((item: { spec: { raw: Named } }) => item.spec.raw.metadata.name)).toEqual(['web-server-7']);
  });

  it('case 9: /v1/cachedobjects/{name} returns one CachedObject, with or without cluster and shard', async () => {
    const name = `${SCHEMA}.web-server-4`;
    for (const query of ['', '?cluster=root&shard=embedded']) {
      const res = await request('GET', `${v1}/cachedobjects/${name}${query}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ kind: 'CachedObject', apiVersion: 'cache.kcp.io/v1alpha1', metadata: { name } });
      expect(res.body.spec.raw.metadata.name).toBe('web-server-4');
      expect(res.body.metadata.annotations).toMatchObject({ 'kcp.io/cluster': 'root', 'kcp.io/shard': 'embedded' });
    }
    const missing = await request('GET', `${v1}/cachedobjects/${SCHEMA}.nothing-here`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });

  it('case 10: /v1/schemas shows the schema with its count per cluster', async () => {
    const res = await request('GET', `${v1}/schemas`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('SchemaList');
    const schema = res.body.items.find((item: { name: string }) => item.name === SCHEMA);
    expect(schema).toEqual({ name: SCHEMA, ...GVR, count: 12, clusters: [{ shard: 'embedded', cluster: 'root', count: 12 }] });
  });

  it('case 11: /v1/clustercachedresources lists the CCR with its status', async () => {
    const res = await eventually(async () => {
      const answer = await request('GET', `${v1}/clustercachedresources`);
      const item = answer.body.items.find((i: Named) => i.metadata.name === 'instances');
      expect(item?.status?.phase).toBe('Ready');
      // Ready says the source was listed; the copy count follows as the copies are written.
      expect(item.status.resourceCounts).toEqual({ local: 12, cache: 12 });
      return answer;
    });
    expect(res.body).toMatchObject({ kind: 'ClusterCachedResourceList', apiVersion: 'cache.kcp.io/v1alpha1' });
    const item = res.body.items.find((i: Named) => i.metadata.name === 'instances');
    expect(item.spec).toMatchObject(GVR);
  });

  it('case 12: a malformed labelSelector or limit is a 400 BadRequest Status', async () => {
    for (const query of [`labelSelector=${encodeURIComponent('n in (1,2')}`, 'limit=abc', 'limit=-1', 'limit=2.5']) {
      for (const path of [`/schemas/${SCHEMA}/objects`, '/cachedobjects']) {
        const res = await request('GET', `${v1}${path}?${query}`);
        expect(res.status, `${path}?${query}`).toBe(400);
        expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
      }
    }
  });

  it('case 13: /docs answers 200 HTML and /openapi.json the document', async () => {
    const docs = await fetch(`${app.url}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await docs.text()).toMatch(/<html/i);
    const openapi = await request('GET', `${app.url}/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toMatch(/^3\./);
  });

  it('case 14: the same name in a second cluster makes the lookup without cluster a 409 listing both clusters', async () => {
    const other = app.clusterUrl('other');
    expect((await request('POST', `${other}${CRDS}`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    expect((await request('POST', `${other}/apis/machines.svm.io/v1alpha1/instances`, { metadata: { name: 'web-server-1', labels: { n: '1' } }, spec: { size: 100 } })).status).toBe(201);
    expect((await request('POST', `${other}${CCRS}`, ccr('instances', GVR))).status).toBe(201);
    const conflict = await eventually(async () => {
      const res = await request('GET', `${v1}/objects/machines.svm.io/v1alpha1/instances/web-server-1`);
      expect(res.status).toBe(409);
      return res;
    });
    expect(conflict.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409 });
    const listed = JSON.stringify([conflict.body.message, conflict.body.details]);
    expect(listed).toContain('root');
    expect(listed).toContain('other');
    const fromOther = await request('GET', `${v1}/objects/machines.svm.io/v1alpha1/instances/web-server-1?cluster=other`);
    expect(fromOther.status).toBe(200);
    expect(fromOther.body.spec).toEqual({ size: 100 });
    const unique = await request('GET', `${v1}/objects/machines.svm.io/v1alpha1/instances/web-server-2`);
    expect(unique.status).toBe(200);
  });

  it('case 15: /v1/schemas then counts both clusters', async () => {
    const schema = await eventually(async () => {
      const res = await request('GET', `${v1}/schemas`);
      const found = res.body.items.find((item: { name: string }) => item.name === SCHEMA);
      expect(found.count).toBe(13);
      return found;
    });
    const clusters = [...schema.clusters].sort((a: { cluster: string }, b: { cluster: string }) => a.cluster.localeCompare(b.cluster));
    expect(clusters).toEqual([{ shard: 'embedded', cluster: 'other', count: 1 }, { shard: 'embedded', cluster: 'root', count: 12 }]);
  });
  it('case 16: a namespaced core object is found with group core, with or without its namespace', async () => {
    const root = app.clusterUrl('root');
    expect((await request('POST', `${root}/api/v1/namespaces`, { metadata: { name: 'team-a' } })).status).toBe(201);
    expect((await request('POST', `${root}/api/v1/namespaces/team-a/configmaps`, { metadata: { name: 'settings', labels: { cache: 'yes' } }, data: { mode: 'fast' } })).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('configmaps', { group: '', version: 'v1', resource: 'configmaps' }, { cache: 'yes' }))).status).toBe(201);
    const url = `${v1}/objects/core/v1/configmaps/settings`;
    const found = await eventually(async () => {
      const res = await request('GET', `${url}?namespace=team-a&cluster=root`);
      expect(res.status).toBe(200);
      return res;
    });
    expect(found.body).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'team-a' }, data: { mode: 'fast' } });
    expect(found.headers.get('etag')).toBe(`"${found.body.metadata.resourceVersion}"`);
    expect((await request('GET', url)).body.metadata.namespace).toBe('team-a');
    expect((await request('GET', `${url}?namespace=`)).status).toBe(404);
    expect((await request('GET', `${url}?namespace=team-b`)).status).toBe(404);
    const objects = await request('GET', `${v1}/schemas/v1.configmaps.core/objects?namespace=team-a`);
    expect(objects.body.items.map((item: Named) => item.metadata.name)).toEqual(['settings']);
  });
});
