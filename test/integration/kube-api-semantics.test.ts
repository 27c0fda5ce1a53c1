// Store semantics as seen through the embedded API over HTTP: paging, watch windows,
// finalizers, status subresource, secrets, namespaces, CRDs and the wildcard cluster.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, readWatchLines, request } from '../helpers/kube-http.js';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

describe('kube API semantics', () => {
  let app: TestApp;
  let cm: string;

  beforeAll(async () => {
    app = await startTestApp({ store: { eventWindow: 100 } });
    cm = `${app.clusterUrl()}/api/v1/namespaces/default/configmaps`;
  });
  afterAll(async () => app?.stop());

  it('case 1: limit/continue pages are complete with no duplicates while objects change', async () => {
    await request('POST', `${app.clusterUrl()}/api/v1/namespaces`, { metadata: { name: 'paging' } });
    const base = `${app.clusterUrl()}/api/v1/namespaces/paging/configmaps`;
    for (let i = 0; i < 25; i++) await request('POST', base, { metadata: { name: `cm-${String(i).padStart(2, '0')}` } });
    const seen: string[] = [];
    let token: string | undefined;
    let listRv: string | undefined;
    do {
      const page = await request('GET', `${base}?limit=7${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      expect(page.status).toBe(200);
      listRv ??= page.body.metadata.resourceVersion;
      expect(page.body.metadata.resourceVersion).toBe(listRv);
      seen.push(...page.body.items.map((i: { metadata: { name: string } }) => i.metadata.name));
      token = page.body.metadata.continue;
      if (token) expect(page.body.metadata.remainingItemCount).toBe(25 - seen.length);
      // Changes between pages must not leak into this snapshot.
      await request('POST', base, { metadata: { generateName: 'late-' } });
    } while (token);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(seen).toEqual([...seen].sort());
  });

  it('case 2: a garbled continue token is 400 BadRequest', async () => {
    const res = await request('GET', `${cm}?limit=1&continue=garbage!`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
  });

  it('case 3: a watch from a resourceVersion older than the window is 410 Expired', async () => {
    const first = await request('POST', cm, { metadata: { name: 'old-rv' } });
    for (let i = 0; i < 120; i++) await request('PUT', `${cm}/old-rv`, { metadata: { name: 'old-rv' }, data: { i: String(i) } });
    const res = await request('GET', `${cm}?watch=true&resourceVersion=${first.body.metadata.resourceVersion}`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
  });

  it('case 4: watch=True (capital T) streams events from a resourceVersion', async () => {
    const created = await request('POST', cm, { metadata: { name: 'watched' } });
    const res = await fetch(`${cm}?watch=True&resourceVersion=${created.body.metadata.resourceVersion}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const events = readWatchLines(res, 2);
    await request('PATCH', `${cm}/watched`, { data: { x: 'y' } }, 'application/merge-patch+json');
    await request('DELETE', `${cm}/watched`);
    const got = await events;
    expect(got.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
  });

  it('case 5: a watch with a label selector sees an object leave the selection as DELETED', async () => {
    await request('POST', cm, { metadata: { name: 'sel', labels: { team: 'red' } } });
    const res = await fetch(`${cm}?watch=1&labelSelector=team%3Dred`);
    const events = readWatchLines(res, 2);
    await request('PATCH', `${cm}/sel`, { metadata: { labels: { team: 'blue' } } }, 'application/merge-patch+json');
    expect((await events).map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
  });

  it('case 6: delete with finalizers sets deletionTimestamp; removing them removes the object', async () => {
    await request('POST', cm, { metadata: { name: 'guarded', finalizers: ['example.com/hold'] } });
    const del = await request('DELETE', `${cm}/guarded`);
    expect(del.status).toBe(200);
    expect(del.body.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    const still = await request('GET', `${cm}/guarded`);
    expect(still.status).toBe(200);
    expect(still.body.metadata.deletionTimestamp).toBe(del.body.metadata.deletionTimestamp);
    const release = await request('PATCH', `${cm}/guarded`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect(release.status).toBe(200);
    expect((await request('GET', `${cm}/guarded`)).status).toBe(404);
  });

  it('case 7: status subresource: spec writes keep status, status writes keep spec, generation counts spec only', async () => {
    await request('POST', `${app.clusterUrl()}${CRDS}`, crd({ group: 'status.example.com', plural: 'jobs', kind: 'Job' }));
    const jobs = `${app.clusterUrl()}/apis/status.example.com/v1alpha1/jobs`;
    const created = await request('POST', jobs, { metadata: { name: 'j' }, spec: { n: 1 }, status: { ignored: true } });
    expect(created.body.status).toBeUndefined();
    expect(created.body.metadata.generation).toBe(1);
    const status = await request('PUT', `${jobs}/j/status`, { ...created.body, spec: { n: 99 }, status: { phase: 'Running' } });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ spec: { n: 1 }, status: { phase: 'Running' }, metadata: { generation: 1 } });
    const spec = await request('PATCH', `${jobs}/j`, { spec: { n: 2 }, status: { phase: 'Lost' } }, 'application/merge-patch+json');
    expect(spec.body).toMatchObject({ spec: { n: 2 }, status: { phase: 'Running' }, metadata: { generation: 2 } });
  });

  it('case 8: secrets fold stringData into base64 data', async () => {
    const res = await request('POST', `${app.clusterUrl()}/api/v1/namespaces/default/secrets`, { metadata: { name: 's' }, stringData: { password: 'hunter2' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ password: Buffer.from('hunter2').toString('base64') });
    expect(res.body.stringData).toBeUndefined();
    expect(res.body.type).toBe('Opaque');
  });

  it('case 9: deleting a namespace deletes the objects in it, then the namespace', async () => {
    const nsUrl = `${app.clusterUrl()}/api/v1/namespaces`;
    await request('POST', nsUrl, { metadata: { name: 'doomed' } });
    await request('POST', `${nsUrl}/doomed/configmaps`, { metadata: { name: 'a' } });
    await request('POST', `${nsUrl}/doomed/secrets`, { metadata: { name: 'b' } });
    expect((await request('DELETE', `${nsUrl}/doomed`)).status).toBe(200);
    // The namespace controller empties it a moment later (test/e2e/namespace-lifecycle.test.ts).
    await eventually(async () => {
      expect((await request('GET', `${nsUrl}/doomed/configmaps/a`)).status).toBe(404);
      expect((await request('GET', `${nsUrl}/doomed/secrets/b`)).status).toBe(404);
      expect((await request('GET', `${nsUrl}/doomed`)).status).toBe(404);
    });
  });

  it('case 10: a CRD serves its resource (discovery, scope) and deleting it removes resource and objects', async () => {
    const definition = crd({ group: 'ns.example.com', plural: 'gizmos', kind: 'Gizmo', scope: 'Namespaced' });
    const created = await request('POST', `${app.clusterUrl()}${CRDS}`, definition);
    expect(created.status).toBe(201);
    const stored = await request('GET', `${app.clusterUrl()}${CRDS}/gizmos.ns.example.com`);
    const conditions = stored.body.status.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`);
    expect(conditions).toEqual(expect.arrayContaining(['Established=True', 'NamesAccepted=True']));
    const discovery = await request('GET', `${app.clusterUrl()}/apis/ns.example.com/v1alpha1`);
    expect(discovery.body.resources).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'gizmos', namespaced: true, kind: 'Gizmo' })]));
    const gizmos = `${app.clusterUrl()}/apis/ns.example.com/v1alpha1/namespaces/default/gizmos`;
    expect((await request('POST', gizmos, { metadata: { name: 'g1' } })).status).toBe(201);
    expect((await request('DELETE', `${app.clusterUrl()}${CRDS}/gizmos.ns.example.com`)).status).toBe(200);
    expect((await request('GET', gizmos)).status).toBe(404);
    await request('POST', `${app.clusterUrl()}${CRDS}`, definition);
    expect((await request('GET', gizmos)).body.items).toEqual([]);
  });

  it('case 11: an invalid CRD is 422', async () => {
    const bad = crd({ group: 'bad.example.com', plural: 'things', kind: 'Thing' });
    (bad['metadata'] as Record<string, unknown>)['name'] = 'wrong.name.example.com';
    expect((await request('POST', `${app.clusterUrl()}${CRDS}`, bad)).status).toBe(422);
  });

  it('case 12: /clusters/* lists and watches across two logical clusters', async () => {
    for (const cluster of ['east', 'west']) {
      expect((await request('POST', `${app.clusterUrl(cluster)}${CRDS}`, crd({ group: 'multi.example.com', plural: 'boxes', kind: 'Box' }))).status).toBe(201);
      expect((await request('POST', `${app.clusterUrl(cluster)}/apis/multi.example.com/v1alpha1/boxes`, { metadata: { name: `box-${cluster}` } })).status).toBe(201);
    }
    const all = `${app.url}/clusters/*/apis/multi.example.com/v1alpha1/boxes`;
    const list = await request('GET', all);
    expect(list.status).toBe(200);
    const clusters = list.body.items.map((i: { metadata: { name: string; annotations: Record<string, string> } }) => `${i.metadata.name}@${i.metadata.annotations['kcp.io/cluster']}`);
    expect(clusters).toEqual(['box-east@east', 'box-west@west']);
    const res = await fetch(`${all}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
    const events = readWatchLines(res, 2);
    await request('POST', `${app.clusterUrl('east')}/apis/multi.example.com/v1alpha1/boxes`, { metadata: { name: 'e2' } });
    await request('POST', `${app.clusterUrl('west')}/apis/multi.example.com/v1alpha1/boxes`, { metadata: { name: 'w2' } });
    const got = (await events).map((e) => `${e.type} ${(e.object['metadata'] as { annotations: Record<string, string> }).annotations['kcp.io/cluster']}`);
    expect(got).toEqual(['ADDED east', 'ADDED west']);
    // A single cluster's list does not see the other's objects.
    const east = await request('GET', `${app.clusterUrl('east')}/apis/multi.example.com/v1alpha1/boxes`);
    expect(east.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['box-east', 'e2']);
  });

  it('case 13: dryRun=All validates but stores nothing', async () => {
    const res = await request('POST', `${cm}?dryRun=All`, { metadata: { name: 'dry' } });
    expect(res.status).toBe(201);
    expect((await request('GET', `${cm}/dry`)).status).toBe(404);
  });

  it('case 13b: a dry run takes no resourceVersion: a create answers without one, a patch at the stored one (kubectl diff shows no version change)', async () => {
    const dry = await request('POST', `${cm}?dryRun=All`, { metadata: { name: 'dry-version' } });
    expect(dry.status).toBe(201);
    expect(dry.body.metadata.uid).toBeTruthy();
    expect(dry.body.metadata).not.toHaveProperty('resourceVersion');
    const created = await request('POST', cm, { metadata: { name: 'dry-version' }, data: { a: '1' } });
    const patched = await request('PATCH', `${cm}/dry-version?dryRun=All`, { data: { a: '2' } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ a: '2' });
    expect(patched.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    const deleted = await request('DELETE', `${cm}/dry-version?dryRun=All`);
    expect(deleted.status).toBe(200);
    expect((await request('GET', `${cm}/dry-version`)).body).toMatchObject({ data: { a: '1' }, metadata: { resourceVersion: created.body.metadata.resourceVersion } });
  });

  it('case 13c: core kinds have no metadata.generation, custom resources and CRDs count it', async () => {
    const configMap = await request('POST', cm, { metadata: { name: 'no-generation' }, data: { a: '1' } });
    expect(configMap.body.metadata).not.toHaveProperty('generation');
    const changed = await request('PATCH', `${cm}/no-generation`, { data: { a: '2' } }, 'application/merge-patch+json');
    expect(changed.body.metadata).not.toHaveProperty('generation');
    const namespace = await request('POST', `${app.clusterUrl()}/api/v1/namespaces`, { metadata: { name: 'no-generation' } });
    expect(namespace.body.metadata).not.toHaveProperty('generation');
    const secret = await request('POST', `${app.clusterUrl()}/api/v1/namespaces/default/secrets`, { metadata: { name: 'no-generation' } });
    expect(secret.body.metadata).not.toHaveProperty('generation');
    const definition = await request('POST', `${app.clusterUrl()}${CRDS}`, crd({ group: 'gen.example.com', plural: 'gadgets', kind: 'Gadget' }));
    expect(definition.body.metadata.generation).toBe(1);
  });

  it('case 14: watch with allowWatchBookmarks and sendInitialEvents ends initial state with a bookmark', async () => {
    const res = await fetch(`${app.clusterUrl()}/api/v1/namespaces?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=`);
    // Read the initial state up to its closing BOOKMARK (the count only bounds a broken stream).
    const events = await readWatchLines(res, 1000, undefined, (e) => e.type === 'BOOKMARK');
    const bookmark = events.find((e) => e.type === 'BOOKMARK');
    expect(bookmark).toBeDefined();
    expect((bookmark!.object['metadata'] as { annotations: Record<string, string> }).annotations['k8s.io/initial-events-end']).toBe('true');
  });

  it('case 15: generateName makes a unique name with the prefix', async () => {
    const a = await request('POST', cm, { metadata: { generateName: 'gen-' } });
    const b = await request('POST', cm, { metadata: { generateName: 'gen-' } });
    expect(a.body.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(a.body.metadata.name).not.toBe(b.body.metadata.name);
  });

  it('case 16: the watch stream ends at timeoutSeconds', async () => {
    const res = await fetch(`${cm}?watch=true&timeoutSeconds=1`);
    // text() resolves only once the server ends the stream; the test timeout bounds the wait.
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\n');
    // Without a resourceVersion the watch starts with the current objects as ADDED events.
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.parse(line).type).toBe('ADDED');
  });

  it('case 17: deletecollection with a label selector deletes only the matching objects', async () => {
    await request('POST', `${app.clusterUrl()}/api/v1/namespaces`, { metadata: { name: 'sweep' } });
    const base = `${app.clusterUrl()}/api/v1/namespaces/sweep/configmaps`;
    for (const [name, tier] of [['a', 'cache'], ['b', 'cache'], ['c', 'db']]) {
      await request('POST', base, { metadata: { name, labels: { tier: tier ?? '' } } });
    }
    const res = await request('DELETE', `${base}?labelSelector=tier%3Dcache`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('ConfigMapList');
    expect(res.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a', 'b']);
    const left = await request('GET', base);
    expect(left.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['c']);
  });
});
