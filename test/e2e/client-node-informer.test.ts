// @kubernetes/client-node informers (2.0.1), unmodified, against the embedded source: the informer
// sends only `watch=true&resourceVersion=…`, re-watches when a stream ends (at once, then after a
// pause growing from 1 s while no event comes between two ends) and re-lists on 410. Writes go
// through the client's own API classes.

import { afterEach, describe, expect, it } from 'vitest';
import { CoreV1Api, CustomObjectsApi, KubeConfig, makeInformer } from '@kubernetes/client-node';
import type { Informer, KubernetesListObject, KubernetesObject, ObjectCache, V1ConfigMap } from '@kubernetes/client-node';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';
import { crd, eventually, request } from '../helpers/kube-http.js';

const NS = 'default';
const CONFIGMAPS_PATH = `/api/v1/namespaces/${NS}/configmaps`;

/** kubeConfigFor is a kubeconfig whose only cluster is `server`, with an anonymous user. */
function kubeConfigFor(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'cachegate', server, skipTLSVerify: true }],
    users: [{ name: 'anonymous' }],
    contexts: [{ name: 'cachegate', cluster: 'cachegate', user: 'anonymous', namespace: NS }],
    currentContext: 'cachegate',
  });
  return kc;
}

/** Recording is what an informer reported through its callbacks. */
interface Recording<T extends KubernetesObject> {
  readonly informer: Informer<T> & ObjectCache<T>;
  readonly adds: string[];
  readonly updates: T[];
  readonly deletes: string[];
  /** errors reported while the informer was meant to run (the AbortError of stop() is left out). */
  readonly errors: unknown[];
  /** connects counts the list/watch (re)starts. */
  connects: number;
}

let running: Array<{ stop: () => Promise<void> }> = [];
let apps: TestApp[] = [];

afterEach(async () => {
  for (const r of running) await r.stop();
  for (const app of apps) await app.stop();
  running = [];
  apps = [];
});

async function app(fields: Record<string, unknown> = {}): Promise<TestApp> {
  const started = await startTestApp(fields);
  apps.push(started);
  return started;
}

/** startInformer starts an informer, records its callbacks and registers it to be stopped after the test. */
async function startInformer<T extends KubernetesObject>(
  kc: KubeConfig, path: string, listFn: () => Promise<KubernetesListObject<T>>,
): Promise<Recording<T>> {
  const informer = makeInformer<T>(kc, path, listFn);
  let stopped = false;
  const rec: Recording<T> = { informer, adds: [], updates: [], deletes: [], errors: [], connects: 0 };
  informer.on('add', (obj) => rec.adds.push(obj.metadata?.name ?? ''));
  informer.on('update', (obj) => rec.updates.push(obj));
  informer.on('delete', (obj) => rec.deletes.push(obj.metadata?.name ?? ''));
  informer.on('connect', () => rec.connects++);
  informer.on('error', (err) => {
    if (!stopped) rec.errors.push(err);
  });
  running.push({
    stop: async () => {
      stopped = true;
      await informer.stop();
    },
  });
  await informer.start();
  return rec;
}

function configMap(name: string, data: Record<string, string> = { key: name }): V1ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS }, data };
}

function namesOf(objects: readonly KubernetesObject[]): string[] {
  return objects.map((o) => o.metadata?.name ?? '').sort();
}

/** versionsOf maps each object's name to its resourceVersion. */
function versionsOf(objects: readonly KubernetesObject[]): Record<string, string | undefined> {
  return Object.fromEntries(objects.map((o) => [o.metadata?.name ?? '', o.metadata?.resourceVersion]));
}

describe('client-node informer against the embedded source', () => {
  it('case 1: sees add, update and delete of configmaps, and its cache follows them', async () => {
    const server = await app();
    const kc = kubeConfigFor(server.clusterUrl('root'));
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: NS, body: configMap('before-start') });
    const rec = await startInformer(kc, CONFIGMAPS_PATH, () => core.listNamespacedConfigMap({ namespace: NS }));

    // The initial list counts as an add.
    await eventually(() => expect(rec.adds).toEqual(['before-start']));

    await core.createNamespacedConfigMap({ namespace: NS, body: configMap('cm-a', { color: 'red' }) });
    await eventually(() => expect(rec.adds).toEqual(['before-start', 'cm-a']));
    expect(rec.informer.get('cm-a', NS)?.data).toEqual({ color: 'red' });

    const current = await core.readNamespacedConfigMap({ name: 'cm-a', namespace: NS });
    await core.replaceNamespacedConfigMap({ name: 'cm-a', namespace: NS, body: { ...current, data: { color: 'blue' } } });
    await eventually(() => {
      expect(rec.updates.map((o) => o.metadata?.name)).toEqual(['cm-a']);
      expect(rec.updates[0]?.data).toEqual({ color: 'blue' });
      expect(rec.informer.get('cm-a', NS)?.data).toEqual({ color: 'blue' });
    });

    await core.deleteNamespacedConfigMap({ name: 'before-start', namespace: NS });
    await eventually(() => {
      expect(rec.deletes).toEqual(['before-start']);
      expect(namesOf(rec.informer.list(NS))).toEqual(['cm-a']);
    });
    expect(rec.informer.get('before-start', NS)).toBeUndefined();
    expect(rec.errors).toEqual([]);
  });

  it('case 2: resumes across server-ended watch streams without losing an event', async () => {
    const server = await app({ watch: { timeoutSeconds: 1 } });
    const kc = kubeConfigFor(server.clusterUrl('root'));
    const core = kc.makeApiClient(CoreV1Api);
    const rec = await startInformer(kc, CONFIGMAPS_PATH, () => core.listNamespacedConfigMap({ namespace: NS }));

    // Creates, and now and then an update or a delete of an earlier object, while the server ends
    // every watch stream after 1 s. After every 8th write the test waits until the informer has
    // watched again, so the writes straddle several streams however fast or slow the machine is.
    const created: string[] = [];
    for (let i = 0; i < 32; i++) {
      const name = `resume-${String(i).padStart(2, '0')}`;
      await core.createNamespacedConfigMap({ namespace: NS, body: configMap(name) });
      created.push(name);
      if (i % 4 === 3) {
        const target = created[i - 2] ?? '';
        const current = await core.readNamespacedConfigMap({ name: target, namespace: NS });
        await core.replaceNamespacedConfigMap({ name: target, namespace: NS, body: { ...current, data: { key: target, round: String(i) } } });
      }
      if (i % 5 === 4) await core.deleteNamespacedConfigMap({ name: created[i - 4] ?? '', namespace: NS });
      if (i % 8 === 7) {
        const connects = rec.connects;
        await eventually(() => expect(rec.connects).toBeGreaterThan(connects));
      }
    }

    await eventually(async () => {
      const fresh = await core.listNamespacedConfigMap({ namespace: NS });
      expect(versionsOf(rec.informer.list(NS))).toEqual(versionsOf(fresh.items));
    });
    expect([...rec.adds].sort()).toEqual(created);
    const fresh = await core.listNamespacedConfigMap({ namespace: NS });
    for (const cm of fresh.items) {
      expect(rec.informer.get(cm.metadata?.name ?? '', NS)?.data).toEqual(cm.data);
    }
    expect(rec.errors).toEqual([]);
  });

  it('case 3: a watch from a resourceVersion older than the event window gets 410 and the informer re-lists', async () => {
    const server = await app({ store: { eventWindow: 100 } });
    const kc = kubeConfigFor(server.clusterUrl('root'));
    const core = kc.makeApiClient(CoreV1Api);
    for (let i = 0; i < 3; i++) await core.createNamespacedConfigMap({ namespace: NS, body: configMap(`early-${i}`) });

    const late = Array.from({ length: 160 }, (_, i) => `late-${String(i).padStart(3, '0')}`);
    let listCalls = 0;
    let firstListRv = '';
    const listFn = async (): Promise<KubernetesListObject<V1ConfigMap>> => {
      listCalls++;
      const list = await core.listNamespacedConfigMap({ namespace: NS });
      if (listCalls === 1) {
        firstListRv = list.metadata?.resourceVersion ?? '';
        // 160 writes after this list push its resourceVersion out of the 100-event window.
        for (const name of late) await core.createNamespacedConfigMap({ namespace: NS, body: configMap(name) });
      }
      return list;
    };
    const rec = await startInformer(kc, CONFIGMAPS_PATH, listFn);
    const expected = ['early-0', 'early-1', 'early-2', ...late].sort();
    await eventually(() => {
      expect(listCalls).toBeGreaterThanOrEqual(2);
      expect(namesOf(rec.informer.list(NS))).toEqual(expected);
    });
    expect([...rec.adds].sort()).toEqual(expected);
    expect(rec.errors).toEqual([]);
    // The first list's resourceVersion is indeed gone from the window: watching from it is a 410.
    const expired = await request('GET', `${server.clusterUrl('root')}${CONFIGMAPS_PATH}?watch=true&resourceVersion=${firstListRv}`);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });

    // The informer watches again after the re-list: a later create still arrives.
    await core.createNamespacedConfigMap({ namespace: NS, body: configMap('after-relist') });
    await eventually(() => expect(rec.informer.get('after-relist', NS)?.metadata?.name).toBe('after-relist'));
    expect(rec.adds.filter((n) => n === 'after-relist')).toHaveLength(1);
    expect(rec.errors).toEqual([]);
  });

  it('case 4: an informer on a custom resource under /clusters/* sees the objects of every logical cluster', async () => {
    const server = await app();
    const widgets = crd({ group: 'example.com', plural: 'widgets', kind: 'Widget' });
    for (const cluster of ['alpha', 'beta']) {
      const res = await request('POST', `${server.clusterUrl(cluster)}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, widgets);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const custom = (cluster: string): CustomObjectsApi => kubeConfigFor(server.clusterUrl(cluster)).makeApiClient(CustomObjectsApi);
    const widget = (name: string, size: string): Record<string, unknown> => ({
      apiVersion: 'example.com/v1alpha1', kind: 'Widget', metadata: { name }, spec: { size },
    });
    const target = { group: 'example.com', version: 'v1alpha1', plural: 'widgets' };
    await custom('alpha').createClusterCustomObject({ ...target, body: widget('alpha-1', 'small') });
    await custom('beta').createClusterCustomObject({ ...target, body: widget('beta-1', 'large') });

    const wildcard = kubeConfigFor(`${server.url}/clusters/*`);
    const everywhere = wildcard.makeApiClient(CustomObjectsApi);
    const rec = await startInformer<KubernetesObject>(
      wildcard, '/apis/example.com/v1alpha1/widgets',
      () => everywhere.listClusterCustomObject(target) as Promise<KubernetesListObject<KubernetesObject>>,
    );
    await eventually(() => expect(namesOf(rec.informer.list())).toEqual(['alpha-1', 'beta-1']));

    // Live events from both clusters arrive on the one wildcard watch.
    await custom('beta').createClusterCustomObject({ ...target, body: widget('beta-2', 'medium') });
    await custom('alpha').createClusterCustomObject({ ...target, body: widget('alpha-2', 'tiny') });
    await eventually(() => expect(namesOf(rec.informer.list())).toEqual(['alpha-1', 'alpha-2', 'beta-1', 'beta-2']));
    const clusterOf = Object.fromEntries(rec.informer.list().map((o) => [o.metadata?.name, o.metadata?.annotations?.['kcp.io/cluster']]));
    expect(clusterOf).toEqual({ 'alpha-1': 'alpha', 'alpha-2': 'alpha', 'beta-1': 'beta', 'beta-2': 'beta' });

    await custom('alpha').deleteClusterCustomObject({ ...target, name: 'alpha-1' });
    await eventually(() => {
      expect(rec.deletes).toEqual(['alpha-1']);
      expect(namesOf(rec.informer.list())).toEqual(['alpha-2', 'beta-1', 'beta-2']);
    });
    expect(rec.errors).toEqual([]);
  });
});
