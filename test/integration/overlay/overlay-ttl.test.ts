// The overlay for a kind that is overlaid but replicated by no ClusterCachedResource: the cache
// never catches up, so every read-your-writes answer comes from the overlay, and the entries go
// only when their TTL passes (here 3 s: long against the few requests of a case that read a write
// back, even on a loaded machine; short for the case that waits for it), counted as `ttl` evictions.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, eventually, request } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

async function metric(url: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('overlay entries that the cache never catches up with', () => {
  let app: TestApp;
  let configmaps: string;

  beforeAll(async () => {
    app = await startTestApp({ cache: { enabled: true, gvks: ['v1/ConfigMap'], ttl: '3s' } });
    configmaps = `${app.url}/v1/objects/core/v1/configmaps`;
    await eventually(async () => expect((await request('GET', `${app.url}/readyz`)).status).toBe(200));
  });
  afterAll(async () => app?.stop());

  it('case 1: create, patch and delete are each read back at once from the overlay (object and list)', async () => {
    const created = await request('POST', `${configmaps}?cluster=root&namespace=default`, { metadata: { name: 'only-overlay', labels: { app: 'a' } }, data: { v: '1' } });
    expect(created.status).toBe(201);
    const read = await request('GET', `${configmaps}/only-overlay?cluster=root&namespace=default`);
    expect(read.status).toBe(200);
    expect(read.headers.get('x-cachegate-source')).toBe('overlay');
    expect(read.headers.get('etag')).toBe(`"${created.body.metadata.resourceVersion}"`);
    // Without namespace: the one namespaced object of that name.
    expect((await request('GET', `${configmaps}/only-overlay?cluster=root`)).body.metadata.namespace).toBe('default');

    const patched = await request('PATCH', `${configmaps}/only-overlay?cluster=root&namespace=default`, { data: { v: '2' } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect((await request('GET', `${configmaps}/only-overlay?cluster=root&namespace=default`)).body.data).toEqual({ v: '2' });

    const list = await request('GET', `${app.url}/v1/schemas/v1.configmaps.core/objects?cluster=root&labelSelector=app%3Da`);
    expect(list.body.items.map((o: { data: unknown }) => o.data)).toEqual([{ v: '2' }]);
    const cached = await request('GET', `${app.url}/v1/cachedobjects?schema=v1.configmaps.core&cluster=root`);
    expect(cached.body.items).toHaveLength(1);
    expect(cached.body.items[0].metadata.name).toBe('v1.configmaps.core.default.only-overlay');
    expect(cached.body.items[0].metadata.annotations['cache.kcp.io/original-resource-version']).toBe(patched.body.metadata.resourceVersion);

    expect((await request('DELETE', `${configmaps}/only-overlay?cluster=root&namespace=default`)).status).toBe(200);
    expect((await request('GET', `${configmaps}/only-overlay?cluster=root&namespace=default`)).status).toBe(404);
    expect((await request('GET', `${app.url}/v1/schemas/v1.configmaps.core/objects?cluster=root&labelSelector=app%3Da`)).body.items).toEqual([]);
  });

  it('case 2: an entry that never catches up expires after the TTL and is counted as a ttl eviction', async () => {
    expect((await request('POST', `${configmaps}?cluster=root&namespace=default`, { metadata: { name: 'expiring' } })).status).toBe(201);
    expect((await request('GET', `${configmaps}/expiring?cluster=root&namespace=default`)).status).toBe(200);
    await eventually(async () => {
      expect((await request('GET', `${configmaps}/expiring?cluster=root&namespace=default`)).status).toBe(404);
      expect(await metric(app.url, 'cachegate_overlay_entries{kind="live"}')).toBe(0);
      expect(await metric(app.url, 'cachegate_overlay_entries{kind="tombstone"}')).toBe(0);
      expect(await metric(app.url, 'cachegate_overlay_evictions_total{cause="ttl"}')).toBeGreaterThanOrEqual(2);
    }, DEADLINE_MS, 100);
    // The source still has it: only the overlay expired.
    expect((await request('GET', `${app.clusterUrl('root')}/api/v1/namespaces/default/configmaps/expiring`)).status).toBe(200);
  });

  it('case 3: a paged list gets overlay-only objects on its last page, each once', async () => {
    for (const name of ['p-a', 'p-b', 'p-c']) {
      expect((await request('POST', `${configmaps}?cluster=root&namespace=default`, { metadata: { name, labels: { paged: 'yes' } } })).status).toBe(201);
    }
    const names: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await request('GET', `${app.url}/v1/schemas/v1.configmaps.core/objects?cluster=root&labelSelector=paged%3Dyes&limit=1${token ? `&continue=${token}` : ''}`);
      expect(res.status).toBe(200);
      names.push(...res.body.items.map((o: { metadata: { name: string } }) => o.metadata.name));
      token = res.body.metadata.continue;
      pages++;
    } while (token && pages < 10);
    expect(names).toEqual(['p-a', 'p-b', 'p-c']);
  });
});
