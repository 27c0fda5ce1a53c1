// Writes through the REST facade with the read-your-writes overlay: every
// write is read back at once, before the cache has replicated it, and once the cache catches up
// reads come from the cache again and the overlay is empty (its metrics say so).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';
const OVERLAY_CONFIG = { cache: { enabled: true, gvks: ['machines.svm.io/v1alpha1/Instance', 'v1/ConfigMap'], ttl: '2m' } };

/** overlayMetrics reads the overlay gauges and counters from /metrics (undefined when absent). */
async function overlayMetrics(url: string): Promise<{ live?: number; tombstone?: number; cache?: number; ttl?: number; text: string }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (re: RegExp): number | undefined => {
    const match = re.exec(text);
    return match?.[1] === undefined ? undefined : Number(match[1]);
  };
  return {
    text,
    live: value(/^cachegate_overlay_entries\{kind="live"\} (\S+)$/m),
    tombstone: value(/^cachegate_overlay_entries\{kind="tombstone"\} (\S+)$/m),
    cache: value(/^cachegate_overlay_evictions_total\{cause="cache"\} (\S+)$/m),
    ttl: value(/^cachegate_overlay_evictions_total\{cause="ttl"\} (\S+)$/m),
  };
}

describe('REST writes with the overlay (cache.enabled)', () => {
  let app: TestApp;
  let objects: string;
  let instances: string;

  const get = (name: string): ReturnType<typeof request> => request('GET', `${objects}/${name}?cluster=root`);

  beforeAll(async () => {
    app = await startTestApp(OVERLAY_CONFIG);
    const root = app.clusterUrl('root');
    objects = `${app.url}/v1/objects/${GVR.group}/${GVR.version}/${GVR.resource}`;
    instances = `${root}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`;
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    expect((await request('POST', instances, { metadata: { name: 'seed' } })).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('instances', GVR))).status).toBe(201);
    await eventually(async () => expect((await request('GET', `${app.url}/v1/schemas/${SCHEMA}/objects?cluster=root&name=seed`)).body.items).toHaveLength(1));
  });
  afterAll(async () => app?.stop());

  it('case 1: 60 creates, each followed at once by a GET: 0 misses; a list right after holds all 60', async () => {
    const misses: string[] = [];
    for (let i = 0; i < 60; i++) {
      const name = `burst-${i}`;
      const created = await request('POST', `${objects}?cluster=root`, { apiVersion: `${GVR.group}/${GVR.version}`, kind: 'Instance', metadata: { name, labels: { batch: 'burst' } }, spec: { i } });
      expect(created.status).toBe(201);
      expect(created.headers.get('x-cachegate-source')).toBe('source');
      expect(created.headers.get('x-cachegate-resource-version')).toBe(`embedded/root/${GVR.group}/${GVR.resource}/${created.body.metadata.resourceVersion}`);
      const read = await get(name);
      if (read.status !== 200 || read.body.metadata.uid !== created.body.metadata.uid) misses.push(`${name}: ${read.status}`);
      else expect(['overlay', 'cache']).toContain(read.headers.get('x-cachegate-source'));
    }
    expect(misses).toEqual([]);
    const list = await request('GET', `${app.url}/v1/schemas/${SCHEMA}/objects?cluster=root&labelSelector=batch%3Dburst`);
    expect(list.status).toBe(200);
    expect(new Set(list.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).size).toBe(60);
    expect(list.body.items).toHaveLength(60);
    const cached = await request('GET', `${app.url}/v1/cachedobjects?schema=${SCHEMA}&cluster=root&labelSelector=batch%3Dburst`);
    expect(cached.body.items).toHaveLength(60);
  });

  it('case 2: 40 patches, each followed at once by a GET: 0 stale reads', async () => {
    const stale: string[] = [];
    for (let i = 0; i < 40; i++) {
      const name = `burst-${i % 10}`;
      const patched = await request('PATCH', `${objects}/${name}?cluster=root`, { spec: { round: i } }, 'application/merge-patch+json');
      expect(patched.status).toBe(200);
      const read = await get(name);
      if (read.body.spec?.round !== i || read.body.metadata.resourceVersion !== patched.body.metadata.resourceVersion) stale.push(`${name} round ${i}`);
    }
    expect(stale).toEqual([]);
  });

  it('case 3: 30 deletes, each followed at once by a GET: 0 objects still readable', async () => {
    const readable: string[] = [];
    for (let i = 30; i < 60; i++) {
      const deleted = await request('DELETE', `${objects}/burst-${i}?cluster=root`);
      expect(deleted.status).toBe(200);
      const read = await get(`burst-${i}`);
      if (read.status !== 404) readable.push(`burst-${i}: ${read.status}`);
    }
    expect(readable).toEqual([]);
    const list = await request('GET', `${app.url}/v1/schemas/${SCHEMA}/objects?cluster=root&labelSelector=batch%3Dburst`);
    expect(list.body.items).toHaveLength(30);
  });

  it('case 4: once the cache catches up, reads come from the cache and the overlay metrics show 0 entries', async () => {
    await eventually(async () => {
      for (let i = 0; i < 30; i += 7) expect((await get(`burst-${i}`)).headers.get('x-cachegate-source')).toBe('cache');
      const metrics = await overlayMetrics(app.url);
      expect(metrics.live).toBe(0);
      expect(metrics.tombstone).toBe(0);
      expect(metrics.cache).toBeGreaterThan(0);
    });
    expect((await get('burst-3')).body.spec.round).toBe(33);
    expect((await get('burst-45')).status).toBe(404);
  });

  it('case 5: a stale PUT answers the source\'s 409 with its message, and the overlay is untouched', async () => {
    const before = (await get('burst-1')).body;
    const fresh = await request('PUT', `${objects}/burst-1?cluster=root`, { ...before, spec: { fresh: true } });
    expect(fresh.status).toBe(200);
    const stale = await request('PUT', `${objects}/burst-1?cluster=root`, { ...before, spec: { stale: true } });
    const direct = await request('PUT', `${instances}/burst-1`, { ...before, spec: { stale: true } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
    expect(stale.body.message).toBe(direct.body.message);
    const after = await get('burst-1');
    expect(after.body.spec).toEqual({ fresh: true });
    expect(after.body.metadata.resourceVersion).toBe(fresh.body.metadata.resourceVersion);
  });

  it('case 6: a status PATCH (merge and JSON patch) and a status PUT are read back at once', async () => {
    const merged = await request('PATCH', `${objects}/burst-2/status?cluster=root`, { status: { phase: 'Running' } }, 'application/merge-patch+json');
    expect(merged.status).toBe(200);
    expect((await get('burst-2')).body.status).toEqual({ phase: 'Running' });
    const jsonPatched = await request('PATCH', `${objects}/burst-2/status?cluster=root`, [{ op: 'replace', path: '/status/phase', value: 'Stopped' }], 'application/json-patch+json');
    expect(jsonPatched.status).toBe(200);
    expect((await get('burst-2')).body.status).toEqual({ phase: 'Stopped' });
    const put = await request('PUT', `${objects}/burst-2/status?cluster=root`, { ...jsonPatched.body, status: { phase: 'Gone' } });
    expect(put.status).toBe(200);
    const read = await get('burst-2');
    expect(read.body.status).toEqual({ phase: 'Gone' });
    expect(read.body.metadata.resourceVersion).toBe(put.body.metadata.resourceVersion);
  });

  it('case 7: delete-all-of by label selector hides the matching objects at once and leaves the others', async () => {
    for (const [i, tier] of ['x', 'x', 'x', 'y', 'y'].entries()) {
      expect((await request('POST', instances, { metadata: { name: `tiered-${i}`, labels: { set: 'tiered', tier } } })).status).toBe(201);
    }
    // Replicated first, so the deleted objects are hidden over cache copies.
    await eventually(async () => expect((await request('GET', `${app.url}/v1/schemas/${SCHEMA}/objects?cluster=root&labelSelector=set%3Dtiered`)).body.items).toHaveLength(5));
    const res = await request('DELETE', `${objects}?cluster=root&labelSelector=${encodeURIComponent('set=tiered,tier=x')}`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('ObjectList');
    expect(res.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual(['tiered-0', 'tiered-1', 'tiered-2']);
    for (const i of [0, 1, 2]) expect((await get(`tiered-${i}`)).status).toBe(404);
    for (const i of [3, 4]) expect((await get(`tiered-${i}`)).status).toBe(200);
    const list = await request('GET', `${app.url}/v1/schemas/${SCHEMA}/objects?cluster=root&labelSelector=set%3Dtiered`);
    expect(list.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual(['tiered-3', 'tiered-4']);
  });

  it('case 8: a dry run is answered by the source and records nothing', async () => {
    const created = await request('POST', `${objects}?cluster=root&dryRun=All`, { metadata: { name: 'dry' } });
    expect(created.status).toBe(201);
    expect((await get('dry')).status).toBe(404);
    const before = (await get('burst-4')).body;
    const patched = await request('PATCH', `${objects}/burst-4?cluster=root&dryRun=All`, { spec: { dry: true } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.body.spec.dry).toBe(true);
    expect((await get('burst-4')).body).toEqual(before);
    expect((await request('DELETE', `${objects}/burst-4?cluster=root&dryRun=All`)).status).toBe(200);
    expect((await get('burst-4')).status).toBe(200);
    expect((await request('GET', `${instances}/dry`)).status).toBe(404);
  });

  it('case 9: a PATCH that is neither merge nor JSON patch is 415; a bad shard or missing cluster is 400', async () => {
    const plain = await request('PATCH', `${objects}/burst-5?cluster=root`, { spec: {} }, 'application/json');
    expect(plain.status).toBe(415);
    expect(plain.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
    const strategic = await request('PATCH', `${objects}/burst-5?cluster=root`, { spec: {} }, 'application/strategic-merge-patch+json');
    expect(strategic.status).toBe(415);
    expect((await request('POST', `${objects}?cluster=root&shard=nope`, { metadata: { name: 'x' } })).status).toBe(400);
    expect((await request('POST', objects, { metadata: { name: 'x' } })).status).toBe(400);
  });

  it('case 9b: a body of a media type the write does not take is 415 naming the accepted ones, and nothing is written', async () => {
    const plain = await request('POST', `${objects}?cluster=root`, '{"metadata":{"name":"plain-text"}}', 'text/plain');
    expect(plain.status).toBe(415);
    expect(plain.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
    expect(plain.body.message).toBe('the body of the request was in an unknown format - accepted media types include: application/json');
    expect((await request('PUT', `${objects}/burst-5?cluster=root`, '<widget/>', 'application/xml')).status).toBe(415);
    const patch = await request('PATCH', `${objects}/burst-5?cluster=root`, 'spec: {}', 'text/plain');
    expect(patch.status).toBe(415);
    expect(patch.body.message).toBe('the body of the request was in an unknown format - accepted media types include: application/merge-patch+json, application/json-patch+json, application/apply-patch+yaml');
    expect((await get('plain-text')).status).toBe(404);
  });

  it('case 10: a namespaced core ConfigMap is created and read back at once; a create conflict is the source\'s 409', async () => {
    const configmaps = `${app.url}/v1/objects/core/v1/configmaps`;
    const created = await request('POST', `${configmaps}?cluster=root&namespace=default`, { metadata: { name: 'settings' }, data: { a: '1' } });
    expect(created.status).toBe(201);
    expect(created.body.metadata.namespace).toBe('default');
    const read = await request('GET', `${configmaps}/settings?cluster=root&namespace=default`);
    expect(read.status).toBe(200);
    expect(read.headers.get('x-cachegate-source')).toBe('overlay');
    expect(read.body.data).toEqual({ a: '1' });
    const again = await request('POST', `${configmaps}?cluster=root&namespace=default`, { metadata: { name: 'settings' } });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('AlreadyExists');
  });

  it('case 11: the overlay metrics are exported with both labels', async () => {
    const metrics = await overlayMetrics(app.url);
    expect(metrics.text).toContain('# TYPE cachegate_overlay_entries gauge');
    expect(metrics.text).toContain('# TYPE cachegate_overlay_evictions_total counter');
    expect(metrics.ttl).toBe(0);
  });
});

describe('REST writes without the overlay (cache.enabled false)', () => {
  let app: TestApp;
  let objects: string;

  beforeAll(async () => {
    app = await startTestApp({ cache: { enabled: false, gvks: ['machines.svm.io/v1alpha1/Instance'], ttl: '2m' } });
    const root = app.clusterUrl('root');
    objects = `${app.url}/v1/objects/${GVR.group}/${GVR.version}/${GVR.resource}`;
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('instances', GVR))).status).toBe(201);
  });
  afterAll(async () => app?.stop());

  it('case 12: the same writes work; reads come from the cache only (eventually) and there are no overlay metrics', async () => {
    const created = await request('POST', `${objects}?cluster=root`, { metadata: { name: 'plain' }, spec: { v: 1 } });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-cachegate-resource-version')).toBe(`embedded/root/${GVR.group}/${GVR.resource}/${created.body.metadata.resourceVersion}`);
    const patched = await request('PATCH', `${objects}/plain?cluster=root`, { spec: { v: 2 } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    await eventually(async () => {
      const read = await request('GET', `${objects}/plain?cluster=root`);
      expect(read.headers.get('x-cachegate-source')).toBe('cache');
      expect(read.body.spec).toEqual({ v: 2 });
    });
    expect((await request('DELETE', `${objects}/plain?cluster=root`)).status).toBe(200);
    await eventually(async () => expect((await request('GET', `${objects}/plain?cluster=root`)).status).toBe(404));
    const metrics = await overlayMetrics(app.url);
    expect(metrics.text).not.toContain('cachegate_overlay_');
  });
});
