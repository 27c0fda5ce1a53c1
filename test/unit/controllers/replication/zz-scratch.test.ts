import { it, expect } from 'vitest';
import pino from 'pino';
import { deepFreeze } from '../../../../src/apimachinery/object-meta.js';
import type { KubeObject } from '../../../../src/apimachinery/object-meta.js';
import { parseLabelSelector } from '../../../../src/apimachinery/label-selector.js';
import { createCacheStore } from '../../../../src/app/cache-store.js';
import { ReplicationController } from '../../../../src/controllers/replication/replication-controller.js';
import { unwrapCachedObject } from '../../../../src/cachedobjects/wrap-cached-object.js';

const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCOPE = { cluster: 'embedded|root', group: 'cache.kcp.io', resource: 'cachedobjects' };
it('scratch: tamper original-name label', async () => {
  const cache = createCacheStore(1000);
  const objs = new Map<string, KubeObject>();
  const o = deepFreeze({ apiVersion: 'machines.svm.io/v1alpha1', kind: 'Instance', metadata: { name: 'web-1', uid: 'u', resourceVersion: '5', labels: { app: 'web' } } });
  objs.set('/web-1', o);
  const c = new ReplicationController({
    spec: { shard: 'embedded', cluster: 'root', gvr: GVR, identityHash: 'id', selector: parseLabelSelector('') },
    source: { get: (_c, ns, n) => objs.get(`${ns}/${n}`), list: () => objs.values(), addHandler: (h) => { for (const x of objs.values()) h.add?.(x); return () => undefined; }, hasSynced: () => true },
    cache, log: pino({ level: 'silent' }), workers: 1, onCountsChanged: () => undefined,
  });
  await c.start();
  await new Promise((r) => setTimeout(r, 100));
  const key = { ...SCOPE, namespace: '', name: 'v1alpha1.instances.machines.svm.io.web-1' };
  const copy = await cache.get(key);
  await cache.update(key, { ...copy, metadata: { ...copy.metadata, labels: { ...copy.metadata.labels, 'cache.kcp.io/object-original-name': 'ghost' } } });
  await new Promise((r) => setTimeout(r, 300));
  const items = (await cache.list(SCOPE)).items;
  console.log('copies:', items.map((i) => [i.metadata.name, i.metadata.labels?.['cache.kcp.io/object-original-name'], unwrapCachedObject(i).metadata.name]));
  console.log('counts:', c.counts());
  await c.stop();
  expect(1).toBe(1);
});
