// The reflector when things go wrong: the server ends watch streams, the resourceVersion it
// watches from falls out of the server's event window (410), and the server is not there at all.

import { afterEach, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { Reflector } from '../../../src/kube/reflector.js';
import type { ReflectorOptions } from '../../../src/kube/reflector.js';
import { embeddedSource } from '../../../src/kube/source-connection.js';
import { createInformerRestarts } from '../../../src/metrics/informer-restarts.js';
import { eventually } from '../../helpers/kube-http.js';
import { TcpProxy } from '../../helpers/tcp-proxy.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { CONFIGMAPS, SILENT, configMap, freePort, storeKeys } from './kube-test-kit.js';

const FAST_BACKOFF = { initialMs: 20, maxMs: 200 };

describe('Reflector recovery', () => {
  const apps: TestApp[] = [];
  const running: Reflector[] = [];
  const proxies: TcpProxy[] = [];

  afterEach(async () => {
    for (const r of running.splice(0)) r.stop();
    for (const p of proxies.splice(0)) await p.close();
    for (const a of apps.splice(0)) await a.stop();
  });

  async function app(fields: Record<string, unknown> = {}): Promise<TestApp> {
    const started = await startTestApp(fields);
    apps.push(started);
    return started;
  }

  function reflector(client: DynamicClient, opts: Partial<ReflectorOptions> = {}): Reflector {
    const r = new Reflector({ source: client.source, client, gvr: CONFIGMAPS, cluster: 'root', log: SILENT, backoff: FAST_BACKOFF, ...opts });
    running.push(r);
    return r;
  }

  it('re-watches from where it was when the server ends streams, missing nothing', async () => {
    const server = await app({ watch: { timeoutSeconds: 1 } });
    // The reflector reaches the server through a proxy that counts its watch requests, so the
    // test can wait for a stream to end and the next to begin; the writes go straight to the server.
    const proxy = await TcpProxy.start(Number(new URL(server.url).port));
    proxies.push(proxy);
    const writer = new DynamicClient(embeddedSource(server.url));
    const r = reflector(new DynamicClient(embeddedSource(proxy.url)));
    const events: string[] = [];
    r.addHandler({
      add: (o) => events.push(`add ${o.metadata.name}`),
      delete: (o) => events.push(`delete ${o.metadata.name}`),
    });
    r.start();
    await eventually(() => expect(r.hasSynced()).toBe(true));

    // Three writes a round, four rounds, each round in a stream of its own: after a round the
    // test waits until the server has ended the stream and the reflector has watched again.
    const expected: string[] = [];
    for (let round = 0; round < 4; round++) {
      const watches = proxy.counts.watches;
      for (let i = 3 * round; i < 3 * round + 3; i++) {
        const created = await writer.create('root', CONFIGMAPS, 'default', configMap(`tick-${i}`, { n: '0' }));
        await writer.update('root', CONFIGMAPS, 'default', { ...created, data: { n: '1' } });
        expected.push(`add tick-${i}`);
        if (i % 3 === 0) {
          await writer.delete('root', CONFIGMAPS, 'default', `tick-${i}`);
          expected.push(`delete tick-${i}`);
        }
      }
      await eventually(() => expect(proxy.counts.watches).toBeGreaterThan(watches));
    }
    const fresh = await writer.listAll('root', CONFIGMAPS);
    await eventually(() => expect(storeKeys(r.list())).toEqual(storeKeys(fresh.items)));
    // The store holds every update (the versions match); every object was added, and every
    // deleted one removed, exactly once.
    expect(events.filter((e) => e.includes(' tick-')).sort()).toEqual([...expected].sort());
  });

  it('relists when its resourceVersion has left the server\'s event window (410)', async () => {
    const server = await app({ store: { eventWindow: 100 } });
    const client = new DynamicClient(embeddedSource(server.url));
    const registry = new Registry();
    let lists = 0;
    const r = reflector(client, {
      restarts: createInformerRestarts(registry),
      // Between the first list and its watch, 150 writes push the list's resourceVersion out of the window.
      afterList: async () => {
        lists += 1;
        if (lists > 1) return;
        for (let i = 0; i < 150; i++) await client.create('root', CONFIGMAPS, 'default', configMap(`burst-${i}`));
      },
    });
    const deleted: string[] = [];
    r.addHandler({ delete: (o) => deleted.push(o.metadata.name ?? '') });
    r.start();
    await eventually(() => expect(lists).toBeGreaterThanOrEqual(2));
    await client.delete('root', CONFIGMAPS, 'default', 'burst-0');
    await eventually(async () => {
      const fresh = await client.listAll('root', CONFIGMAPS);
      expect(storeKeys(r.list())).toEqual(storeKeys(fresh.items));
    });
    expect(r.list()).not.toContainEqual(expect.objectContaining({ metadata: expect.objectContaining({ name: 'burst-0' }) }));
    expect(deleted).toEqual(['burst-0']);
    expect(r.restarts).toBeGreaterThanOrEqual(1);
    const metric = await registry.getSingleMetric('cachegate_informer_restarts_total')?.get();
    expect(metric?.values).toContainEqual(expect.objectContaining({ labels: { source: 'embedded', resource: 'v1.configmaps.core' } }));
    expect(metric?.values[0]?.value).toBeGreaterThanOrEqual(1);
  });

  it('keeps retrying while the server is down, says why, and syncs once it is up', async () => {
    const port = await freePort();
    const client = new DynamicClient(embeddedSource(`http://127.0.0.1:${port}`));
    const r = reflector(client);
    r.start();
    await eventually(() => expect(r.lastError()).toMatch(/unreachable: .*ECONNREFUSED/));
    expect(r.lastError()).toContain('v1.configmaps.core');
    expect(r.lastError()).toContain('source embedded');
    await eventually(() => expect(r.restarts).toBeGreaterThanOrEqual(2));
    expect(r.hasSynced()).toBe(false);

    const server = await app({ port });
    await new DynamicClient(embeddedSource(server.url)).create('root', CONFIGMAPS, 'default', configMap('late'));
    await eventually(() => expect(r.hasSynced()).toBe(true));
    expect(r.lastError()).toBeUndefined();
    expect(r.get('root', 'default', 'late')).toBeDefined();
    await client.create('root', CONFIGMAPS, 'default', configMap('later'));
    await eventually(() => expect(r.get('root', 'default', 'later')).toBeDefined());
  });

  it('reconnects after the server goes away mid-watch and comes back', async () => {
    const port = await freePort();
    const first = await app({ port });
    const client = new DynamicClient(embeddedSource(first.url));
    const r = reflector(client);
    r.start();
    await eventually(() => expect(r.hasSynced()).toBe(true));
    await first.stop();
    await eventually(() => expect(r.lastError()).toMatch(/ECONNREFUSED/));

    const restartsWhileDown = r.restarts;
    expect(restartsWhileDown).toBeGreaterThanOrEqual(1);
    // The embedded server keeps nothing across restarts and counts resourceVersions from the same
    // start; the first one held no configmaps, so resuming the watch where it broke off is right.
    const second = await app({ port });
    await client.create('root', CONFIGMAPS, 'default', configMap('after-restart'));
    await eventually(async () => {
      const fresh = await new DynamicClient(embeddedSource(second.url)).listAll('root', CONFIGMAPS);
      expect(storeKeys(r.list())).toEqual(storeKeys(fresh.items));
    });
    expect(r.lastError()).toBeUndefined();
  });
});
