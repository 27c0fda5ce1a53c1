// The read model over a real app's cache: lookups, paging, schemas, watch, and refusals.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import type { ReadEvent } from '../../../src/read/read-model.js';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';

async function seedCluster(app: TestApp, cluster: string, names: string[]): Promise<void> {
  const base = app.clusterUrl(cluster);
  await request('POST', `${base}${CRDS}`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Instance' }));
  for (const [i, name] of names.entries()) {
    await request('POST', `${base}/apis/machines.svm.io/v1alpha1/instances`, { metadata: { name, labels: { n: String(i + 1), tier: i % 2 ? 'db' : 'web' } } });
  }
  await request('POST', `${base}${CCRS}`, ccr('instances', GVR));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => undefined, (err: unknown) => err);
}

describe('the read model', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
    await seedCluster(app, 'root', Array.from({ length: 12 }, (_, i) => `web-server-${i + 1}`));
    await seedCluster(app, 'other', ['web-server-1']);
    await eventually(async () => expect((await app.app.read.listCachedObjects({ schema: SCHEMA }, {})).totalCount).toBe(13));
  });
  afterAll(async () => app?.stop());

  it('case 1: getObject with a cluster returns the original, unwrapped', async () => {
    const found = await app.app.read.getObject({ ...GVR, name: 'web-server-2', cluster: 'root' });
    expect(found).toMatchObject({ shard: 'embedded', cluster: 'root', source: 'cache' });
    expect(found.object).toEqual((await request('GET', `${app.clusterUrl('root')}/apis/machines.svm.io/v1alpha1/instances/web-server-2`)).body);
  });

  it('case 2: getObject without a cluster works when unique and is 409 listing clusters when not', async () => {
    expect((await app.app.read.getObject({ ...GVR, name: 'web-server-3' })).cluster).toBe('root');
    const err = await rejection(app.app.read.getObject({ ...GVR, name: 'web-server-1' }));
    expect(isAppError(err, 'Conflict')).toBe(true);
    expect((err as Error).message).toContain('embedded/other');
    expect((err as Error).message).toContain('embedded/root');
  });

  it('case 3: a missing object is NotFound; batched lookups report each result', async () => {
    const results = await app.app.read.getObjects([{ ...GVR, name: 'web-server-4', cluster: 'root' }, { ...GVR, name: 'nope' }]);
    expect((results[0] as { cluster: string }).cluster).toBe('root');
    expect(isAppError(results[1], 'NotFound')).toBe(true);
  });

  it('case 4: label selectors apply to the original\'s labels, through the index', async () => {
    const page = await app.app.read.listObjects({ schema: SCHEMA, cluster: 'root', labelSelector: 'n in (1,2,3)' }, {});
    expect(page.items.map((o) => o.metadata.name).sort()).toEqual(['web-server-1', 'web-server-2', 'web-server-3']);
    const byLabelOnly = await app.app.read.listObjects({ labelSelector: 'tier=db,n notin (2)' }, {});
    expect(byLabelOnly.items.map((o) => o.metadata.name).sort()).toEqual(['web-server-10', 'web-server-12', 'web-server-4', 'web-server-6', 'web-server-8']);
  });

  it('case 5: limit pages are complete and consistent while the cache changes', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await app.app.read.listObjects({ schema: SCHEMA, cluster: 'root', shard: 'embedded' }, { limit: 5, continue: token });
      expect(page.totalCount).toBe(12);
      seen.push(...page.items.map((o) => o.metadata.name ?? ''));
      token = page.continue;
      pages++;
      if (pages === 1) await request('POST', `${app.clusterUrl('root')}/apis/machines.svm.io/v1alpha1/instances`, { metadata: { name: 'late-arrival' } });
    } while (token);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(12);
    expect(seen).not.toContain('late-arrival');
  });

  it('case 6: schemas report per-cluster counts', async () => {
    await eventually(async () => {
      const [summary] = (await app.app.read.schemas()).filter((s) => s.name === SCHEMA);
      expect(summary).toMatchObject({ name: SCHEMA, group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances', count: 14 });
      expect(summary?.clusters).toEqual([{ shard: 'embedded', cluster: 'other', count: 1 }, { shard: 'embedded', cluster: 'root', count: 13 }]);
    });
  });

  it('case 7: getCachedObject finds a copy by its name, and asks for a cluster when the name is in two', async () => {
    expect((await app.app.read.getCachedObject(`${SCHEMA}.web-server-5`, {})).metadata.name).toBe(`${SCHEMA}.web-server-5`);
    expect(isAppError(await rejection(app.app.read.getCachedObject(`${SCHEMA}.web-server-1`, {})), 'Conflict')).toBe(true);
    expect((await app.app.read.getCachedObject(`${SCHEMA}.web-server-1`, { cluster: 'other' })).metadata.annotations?.['kcp.io/cluster']).toBe('other');
  });

  it('case 8: a filter no index can answer is refused; a bad selector is BadRequest', async () => {
    expect(isAppError(await rejection(app.app.read.listCachedObjects({ version: 'v1alpha1' }, {})), 'BadRequest')).toBe(true);
    expect(isAppError(await rejection(app.app.read.listCachedObjects({ labelSelector: 'n in (' }, {})), 'BadRequest')).toBe(true);
  });

  it('case 9: a watch sees changes after it starts, filtered', async () => {
    const events: ReadEvent[] = [];
    const watch = await app.app.read.watchCachedObjects({ schema: SCHEMA, labelSelector: 'watched=yes' }, {}, (e) => events.push(e));
    try {
      await request('POST', `${app.clusterUrl('root')}/apis/machines.svm.io/v1alpha1/instances`, { metadata: { name: 'seen', labels: { watched: 'yes' } } });
      await request('POST', `${app.clusterUrl('root')}/apis/machines.svm.io/v1alpha1/instances`, { metadata: { name: 'unseen' } });
      await eventually(() => expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([`ADDED ${SCHEMA}.seen`]));
      expect(Number(events[0]?.resourceVersion)).toBeGreaterThan(0);
    } finally {
      watch.stop();
    }
  });

  it('case 10: the CCRs of every source are listed with shard and cluster', async () => {
    const ccrs = await app.app.read.clusterCachedResources();
    expect(ccrs.map((c) => `${c.metadata.annotations?.['kcp.io/shard']}/${c.metadata.annotations?.['kcp.io/cluster']}/${c.metadata.name}`).sort())
      .toEqual(['embedded/other/instances', 'embedded/root/instances']);
  });

  it('case 11: two originals whose copies share a by-name index key are each found, and neither copy is taken for the other', async () => {
    // Schema v1alpha1.instances.machines.svm with name io.web-server-2 reads, in copy-name form,
    // like schema v1alpha1.instances.machines.svm.io with name web-server-2.
    const base = app.clusterUrl('third');
    const OTHER = { group: 'machines.svm', version: 'v1alpha1', resource: 'instances' };
    await request('POST', `${base}${CRDS}`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Instance' }));
    await request('POST', `${base}/apis/machines.svm.io/v1alpha1/instances`, { metadata: { name: 'web-server-2' } });
    await request('POST', `${base}${CCRS}`, ccr('instances', GVR));
    const first = await eventually(async () => app.app.read.getObject({ ...GVR, name: 'web-server-2', cluster: 'third' }));
    await request('POST', `${base}${CRDS}`, crd({ group: OTHER.group, plural: OTHER.resource, kind: 'Instance' }));
    await request('POST', `${base}/apis/machines.svm/v1alpha1/instances`, { metadata: { name: 'io.web-server-2' } });
    await request('POST', `${base}${CCRS}`, ccr('instances-svm', OTHER));
    const second = await eventually(async () => app.app.read.getObject({ ...OTHER, name: 'io.web-server-2', cluster: 'third' }));
    expect(second.object.apiVersion).toBe('machines.svm/v1alpha1');
    // A later object of the second schema: once its copy is there, the controller has handled the first.
    await request('POST', `${base}/apis/machines.svm/v1alpha1/instances`, { metadata: { name: 'barrier' } });
    await eventually(async () => app.app.read.getObject({ ...OTHER, name: 'barrier', cluster: 'third' }));
    const again = await app.app.read.getObject({ ...GVR, name: 'web-server-2', cluster: 'third' });
    expect(again.object.apiVersion).toBe('machines.svm.io/v1alpha1');
    expect(again.cachedObject.metadata.resourceVersion).toBe(first.cachedObject.metadata.resourceVersion);
    expect(isAppError(await rejection(app.app.read.getObject({ ...OTHER, name: 'web-server-2', cluster: 'third' })), 'NotFound')).toBe(true);
    const copies = await app.app.read.listCachedObjects({ cluster: 'third', shard: 'embedded' }, {});
    expect(copies.items.map((c) => c.metadata.labels?.['cache.kcp.io/object-schema']).sort())
      .toEqual(['v1alpha1.instances.machines.svm', 'v1alpha1.instances.machines.svm', 'v1alpha1.instances.machines.svm.io']);
  });
});
