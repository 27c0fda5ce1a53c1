// The reflector against the embedded source: it syncs, follows adds, updates and deletes, keeps
// same-named objects of two logical clusters apart, filters by label, and replays its store to
// late handlers.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { Reflector } from '../../../src/kube/reflector.js';
import type { ReflectorOptions } from '../../../src/kube/reflector.js';
import { embeddedSource } from '../../../src/kube/source-connection.js';
import { createInformerRestarts } from '../../../src/metrics/informer-restarts.js';
import { eventually } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { CONFIGMAPS, SILENT, WIDGETS, configMap, defineWidgets, storeKeys } from './kube-test-kit.js';

/** Recorder notes every event a reflector delivers, as `<type> <cluster>/<name>`. */
function recorder(reflector: Reflector): string[] {
  const events: string[] = [];
  const label = (o: KubeObject): string => `${o.metadata.annotations?.['kcp.io/cluster']}/${o.metadata.name}`;
  reflector.addHandler({
    add: (o) => events.push(`add ${label(o)}`),
    update: (o, old) => events.push(`update ${label(o)} ${old.metadata.resourceVersion}->${o.metadata.resourceVersion}`),
    delete: (o) => events.push(`delete ${label(o)}`),
  });
  return events;
}

describe('Reflector', () => {
  let app: TestApp;
  let client: DynamicClient;
  const running: Reflector[] = [];

  beforeAll(async () => {
    app = await startTestApp({ embedded: { enabled: true, clusters: ['root', 'other'] } });
    client = new DynamicClient(embeddedSource(app.url));
    await defineWidgets(client, 'root');
    await defineWidgets(client, 'other');
  });
  afterEach(() => {
    for (const r of running.splice(0)) r.stop();
  });
  afterAll(async () => app?.stop());

  function reflector(opts: Partial<ReflectorOptions> & Pick<ReflectorOptions, 'gvr' | 'cluster'>): Reflector {
    const r = new Reflector({ source: client.source, client, log: SILENT, ...opts });
    running.push(r);
    return r;
  }

  it('syncs with what exists, then sees adds, updates and deletes', async () => {
    await client.create('root', CONFIGMAPS, 'default', configMap('before', {}, { suite: 'basic' }));
    const r = reflector({ gvr: CONFIGMAPS, cluster: 'root', labelSelector: 'suite=basic' });
    const events = recorder(r);
    expect(r.hasSynced()).toBe(false);
    r.start();
    await eventually(() => expect(r.hasSynced()).toBe(true));
    expect(r.lastError()).toBeUndefined();
    expect(events).toEqual(['add root/before']);

    const created = await client.create('root', CONFIGMAPS, 'default', configMap('after', { v: '1' }, { suite: 'basic' }));
    const updated = await client.update('root', CONFIGMAPS, 'default', { ...created, data: { v: '2' } });
    await client.delete('root', CONFIGMAPS, 'default', 'before');
    await eventually(() => expect(events).toEqual([
      'add root/before',
      'add root/after',
      `update root/after ${created.metadata.resourceVersion}->${updated.metadata.resourceVersion}`,
      'delete root/before',
    ]));
    expect(r.get('root', 'default', 'after')?.['data']).toEqual({ v: '2' });
    expect(r.get('root', 'default', 'before')).toBeUndefined();
    expect(Object.isFrozen(r.get('root', 'default', 'after'))).toBe(true);
  });

  it('keeps same-named objects of two logical clusters apart when watching /clusters/*', async () => {
    await client.create('root', WIDGETS, undefined, { metadata: { name: 'twin' }, spec: { home: 'root' } });
    await client.create('other', WIDGETS, undefined, { metadata: { name: 'twin' }, spec: { home: 'other' } });
    const r = reflector({ gvr: WIDGETS, cluster: undefined });
    r.start();
    await eventually(() => expect(r.hasSynced()).toBe(true));
    expect(r.get('root', undefined, 'twin')?.['spec']).toEqual({ home: 'root' });
    expect(r.get('other', undefined, 'twin')?.['spec']).toEqual({ home: 'other' });

    await client.patch('other', WIDGETS, undefined, 'twin', { spec: { home: 'other', changed: true } }, 'merge');
    await client.delete('root', WIDGETS, undefined, 'twin');
    await eventually(() => {
      expect(r.get('root', undefined, 'twin')).toBeUndefined();
      expect(r.get('other', undefined, 'twin')?.['spec']).toEqual({ home: 'other', changed: true });
    });
    const fresh = await client.listAll(undefined, WIDGETS);
    expect(storeKeys(r.list())).toEqual(storeKeys(fresh.items));
  });

  it('watches one logical cluster only when given one', async () => {
    const r = reflector({ gvr: CONFIGMAPS, cluster: 'other', labelSelector: 'suite=one' });
    const events = recorder(r);
    r.start();
    await eventually(() => expect(r.hasSynced()).toBe(true));
    await client.create('root', CONFIGMAPS, 'default', configMap('elsewhere', {}, { suite: 'one' }));
    await client.create('other', CONFIGMAPS, 'default', configMap('here', {}, { suite: 'one' }));
    await eventually(() => expect(events).toEqual(['add other/here']));
  });

  it('replays the store as adds to a handler added after sync, and stops calling removed handlers', async () => {
    await client.create('root', CONFIGMAPS, 'default', configMap('replay-1', {}, { suite: 'replay' }));
    await client.create('root', CONFIGMAPS, 'default', configMap('replay-2', {}, { suite: 'replay' }));
    const r = reflector({ gvr: CONFIGMAPS, cluster: 'root', labelSelector: 'suite=replay' });
    r.start();
    await eventually(() => expect(r.hasSynced()).toBe(true));
    const late = recorder(r);
    expect(late.sort()).toEqual(['add root/replay-1', 'add root/replay-2']);

    const removedEvents: string[] = [];
    const remove = r.addHandler({ add: (o) => removedEvents.push(o.metadata.name ?? '') });
    remove();
    removedEvents.length = 0;
    await client.create('root', CONFIGMAPS, 'default', configMap('replay-3', {}, { suite: 'replay' }));
    await eventually(() => expect(late).toContain('add root/replay-3'));
    expect(removedEvents).toEqual([]);
  });

  it('delivers nothing after stop, and a failing handler does not stop the others', async () => {
    const r = reflector({ gvr: CONFIGMAPS, cluster: 'root', labelSelector: 'suite=stop' });
    r.addHandler({ add: () => { throw new Error('handler bug'); } });
    const events = recorder(r);
    r.start();
    await eventually(() => expect(r.hasSynced()).toBe(true));
    await client.create('root', CONFIGMAPS, 'default', configMap('seen', {}, { suite: 'stop' }));
    await eventually(() => expect(events).toEqual(['add root/seen']));
    r.stop();
    await client.create('root', CONFIGMAPS, 'default', configMap('unseen', {}, { suite: 'stop' }));
    // A second reflector sees the write, so the stopped one would have had it by now.
    const witness = reflector({ gvr: CONFIGMAPS, cluster: 'root', labelSelector: 'suite=stop' });
    witness.start();
    await eventually(() => expect(witness.get('root', 'default', 'unseen')).toBeDefined());
    expect(events).toEqual(['add root/seen']);
    expect(r.get('root', 'default', 'unseen')).toBeUndefined();
  });

  it('shares one restart counter per registry between reflectors', () => {
    const registry = new Registry();
    const restarts = createInformerRestarts(registry);
    reflector({ gvr: CONFIGMAPS, cluster: 'root', restarts });
    reflector({ gvr: WIDGETS, cluster: 'root', restarts });
    expect(registry.getSingleMetric('cachegate_informer_restarts_total')).toBeDefined();
  });
});
