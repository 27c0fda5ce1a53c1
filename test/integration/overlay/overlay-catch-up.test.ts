// The overlay's whole life for an overlaid, replicated kind, made deterministic with a CCR label
// selector: objects written without the label are not replicated (reads must come from the
// overlay); once a patch adds the label the cache replicates them, reads come from the cache, and
// the cache evicts every entry (live and tombstone).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';

async function metric(url: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('overlay entries until the cache catches up', () => {
  let app: TestApp;
  let objects: string;
  const get = (name: string): ReturnType<typeof request> => request('GET', `${objects}/${name}?cluster=root`);

  beforeAll(async () => {
    app = await startTestApp({ cache: { enabled: true, gvks: ['machines.svm.io/v1alpha1/Instance'], ttl: '2m' } });
    const root = app.clusterUrl('root');
    objects = `${app.url}/v1/objects/${GVR.group}/${GVR.version}/${GVR.resource}`;
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('instances', GVR, { replicated: 'yes' }))).status).toBe(201);
    expect((await request('POST', `${root}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`, { metadata: { name: 'seed', labels: { replicated: 'yes' } } })).status).toBe(201);
    await eventually(async () => expect((await get('seed')).headers.get('x-cachegate-source')).toBe('cache'));
  });
  afterAll(async () => app?.stop());

  it('case 1: 20 unreplicated creates and 20 patches are all answered by the overlay at once', async () => {
    for (let i = 0; i < 20; i++) {
      const created = await request('POST', `${objects}?cluster=root`, { metadata: { name: `lag-${i}` }, spec: { i } });
      expect(created.status).toBe(201);
      const read = await get(`lag-${i}`);
      expect(read.status).toBe(200);
      expect(read.headers.get('x-cachegate-source')).toBe('overlay');
      expect(read.body).toEqual(created.body);
    }
    for (let i = 0; i < 20; i++) {
      const patched = await request('PATCH', `${objects}/lag-${i}?cluster=root`, { spec: { i, patched: true } }, 'application/merge-patch+json');
      const read = await get(`lag-${i}`);
      expect(read.body.metadata.resourceVersion).toBe(patched.body.metadata.resourceVersion);
      expect(read.body.spec.patched).toBe(true);
    }
    expect(await metric(app.url, 'cachegate_overlay_entries{kind="live"}')).toBe(20);
    const list = await request('GET', `${app.url}/v1/schemas/${SCHEMA}/objects?cluster=root`);
    expect(list.body.items.map((o: { metadata: { name: string } }) => o.metadata.name).sort()).toEqual(['seed', ...Array.from({ length: 20 }, (_, i) => `lag-${i}`)].sort());
  });

  it('case 2: a patch adding the selected label gets them replicated; reads move to the cache and the entries are evicted by it', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await request('PATCH', `${objects}/lag-${i}?cluster=root`, { metadata: { labels: { replicated: 'yes' } } }, 'application/merge-patch+json');
      expect(res.status).toBe(200);
      expect((await get(`lag-${i}`)).body.metadata.labels).toEqual({ replicated: 'yes' });
    }
    await eventually(async () => {
      for (let i = 0; i < 20; i++) expect((await get(`lag-${i}`)).headers.get('x-cachegate-source')).toBe('cache');
      expect(await metric(app.url, 'cachegate_overlay_entries{kind="live"}')).toBe(0);
    });
    expect(await metric(app.url, 'cachegate_overlay_evictions_total{cause="cache"}')).toBeGreaterThanOrEqual(20);
    expect(await metric(app.url, 'cachegate_overlay_evictions_total{cause="ttl"}')).toBe(0);
  });

  it('case 3: deletes of replicated objects are hidden at once, and their tombstones are evicted by the cache', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await request('DELETE', `${objects}/lag-${i}?cluster=root`)).status).toBe(200);
      expect((await get(`lag-${i}`)).status).toBe(404);
    }
    await eventually(async () => {
      expect(await metric(app.url, 'cachegate_overlay_entries{kind="tombstone"}')).toBe(0);
      expect(await metric(app.url, 'cachegate_overlay_entries{kind="live"}')).toBe(0);
    });
    for (let i = 0; i < 10; i++) expect((await get(`lag-${i}`)).status).toBe(404);
    expect((await get('lag-10')).status).toBe(200);
  });

  it('case 4: a finalizer-held delete is read back with its deletionTimestamp at once', async () => {
    const patched = await request('PATCH', `${objects}/lag-11?cluster=root`, { metadata: { finalizers: ['example.com/hold'] } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    const deleted = await request('DELETE', `${objects}/lag-11?cluster=root`);
    expect(deleted.status).toBe(200);
    const read = await get('lag-11');
    expect(read.status).toBe(200);
    expect(read.body.metadata.deletionTimestamp).toBeTruthy();
    const released = await request('PATCH', `${objects}/lag-11?cluster=root`, [{ op: 'remove', path: '/metadata/finalizers' }], 'application/json-patch+json');
    expect(released.status).toBe(200);
    expect((await get('lag-11')).status).toBe(404);
  });

  it('case 5: a CachedObject looked up by its own name reflects recent writes at once', async () => {
    const byName = (name: string): ReturnType<typeof request> => request('GET', `${app.url}/v1/cachedobjects/${SCHEMA}.${name}?cluster=root`);
    const created = await request('POST', `${objects}?cluster=root`, { metadata: { name: 'named-only' }, spec: { v: 1 } });
    const onlyInOverlay = await byName('named-only');
    expect(onlyInOverlay.status).toBe(200);
    expect(onlyInOverlay.body.spec.raw).toEqual(created.body);
    await request('POST', `${objects}?cluster=root`, { metadata: { name: 'named-replicated', labels: { replicated: 'yes' } }, spec: { v: 1 } });
    await eventually(async () => expect((await get('named-replicated')).headers.get('x-cachegate-source')).toBe('cache'));
    const patched = await request('PATCH', `${objects}/named-replicated?cluster=root`, { spec: { v: 2 } }, 'application/merge-patch+json');
    expect((await byName('named-replicated')).body.spec.raw.metadata.resourceVersion).toBe(patched.body.metadata.resourceVersion);
    expect((await request('DELETE', `${objects}/named-replicated?cluster=root`)).status).toBe(200);
    expect((await byName('named-replicated')).status).toBe(404);
  });
});
