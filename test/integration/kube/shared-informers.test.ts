// SharedInformers: one reflector per (source, cluster, GVR, selector), started by the first
// acquire and stopped by the last release.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { SharedInformers } from '../../../src/kube/shared-informers.js';
import { embeddedSource } from '../../../src/kube/source-connection.js';
import { createInformerRestarts } from '../../../src/metrics/informer-restarts.js';
import type { SourceConnection } from '../../../src/kube/source-connection.js';
import { eventually } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { CONFIGMAPS, SILENT, configMap } from './kube-test-kit.js';

describe('SharedInformers', () => {
  let app: TestApp;
  let source: SourceConnection;
  let client: DynamicClient;

  beforeAll(async () => {
    app = await startTestApp();
    source = embeddedSource(app.url);
    client = new DynamicClient(source);
  });
  afterAll(async () => app?.stop());

  it('shares one running reflector between two acquires and stops it after the last release', async () => {
    const informers = new SharedInformers({ log: SILENT, restarts: createInformerRestarts(new Registry()) });
    const a = informers.acquire(source, CONFIGMAPS, 'root', 'shared=yes');
    const b = informers.acquire(source, CONFIGMAPS, 'root', 'shared=yes');
    expect(b.reflector).toBe(a.reflector);
    expect(informers.all()).toEqual([a.reflector]);
    await eventually(() => expect(a.reflector.hasSynced()).toBe(true));

    a.release();
    a.release(); // a second release of the same lease changes nothing
    expect(informers.all()).toEqual([a.reflector]);
    await client.create('root', CONFIGMAPS, 'default', configMap('while-held', {}, { shared: 'yes' }));
    await eventually(() => expect(b.reflector.get('root', 'default', 'while-held')).toBeDefined());

    b.release();
    expect(informers.all()).toEqual([]);
    await client.create('root', CONFIGMAPS, 'default', configMap('after-release', {}, { shared: 'yes' }));
    const c = informers.acquire(source, CONFIGMAPS, 'root', 'shared=yes');
    expect(c.reflector).not.toBe(a.reflector);
    await eventually(() => expect(c.reflector.get('root', 'default', 'after-release')).toBeDefined());
    // The stopped reflector did not follow the source any more.
    expect(a.reflector.get('root', 'default', 'after-release')).toBeUndefined();
    informers.stopAll();
    expect(informers.all()).toEqual([]);
  });

  it('keeps separate reflectors per cluster, selector and resource', () => {
    const informers = new SharedInformers({ log: SILENT });
    const leases = [
      informers.acquire(source, CONFIGMAPS, 'root'),
      informers.acquire(source, CONFIGMAPS, undefined),
      informers.acquire(source, CONFIGMAPS, 'root', 'a=b'),
      informers.acquire(source, { group: '', version: 'v1', resource: 'secrets' }, 'root'),
    ];
    expect(new Set(leases.map((l) => l.reflector)).size).toBe(4);
    expect(informers.all()).toHaveLength(4);
    informers.stopAll();
    expect(informers.all()).toHaveLength(0);
    // Releasing after stopAll is harmless.
    for (const lease of leases) lease.release();
  });

  it('lets two SharedInformers share one metrics registry', () => {
    const registry = new Registry();
    const restarts = createInformerRestarts(registry);
    const first = new SharedInformers({ log: SILENT, restarts });
    const second = new SharedInformers({ log: SILENT, restarts });
    first.acquire(source, CONFIGMAPS, 'root');
    second.acquire(source, CONFIGMAPS, 'root');
    expect(registry.getSingleMetric('cachegate_informer_restarts_total')).toBeDefined();
    first.stopAll();
    second.stopAll();
  });
});
