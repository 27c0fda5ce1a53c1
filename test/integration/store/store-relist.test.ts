// A durable store whose feed was cut off while its revision was compacted away lists again: the
// watch cache ends equal to etcd, and its watchers see the changes they missed (changed objects
// as MODIFIED or ADDED, removed ones as DELETED) instead of silently diverging.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3 } from 'etcd3';
import { openEtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import type { EtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import { openDurableStore } from '../../../src/store/durable-store.js';
import type { DurableStore } from '../../../src/store/durable-store.js';
import type { WatchEvent } from '../../../src/store/store.js';
import { eventually } from '../../helpers/kube-http.js';
import { startEtcd } from '../../helpers/etcd-cluster.js';
import type { EtcdCluster } from '../../helpers/etcd-cluster.js';
import { RawTcpProxy } from '../../helpers/raw-tcp-proxy.js';

const PREFIX = '/relist';
const REF = { cluster: 'c1', group: '', resource: 'configmaps' };
const KEYS = `${PREFIX}/source/core/configmaps/c1/default/`;

function configMap(name: string, value: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid: `uid-${name}` }, data: { value } });
}

describe('a durable store after a compacted feed', () => {
  let etcd: EtcdCluster;
  let proxy: RawTcpProxy;
  let backend: EtcdBackend;
  let durable: DurableStore;
  let direct: Etcd3;

  beforeAll(async () => {
    etcd = await startEtcd({ members: 1 });
    proxy = await RawTcpProxy.start(Number(new URL(etcd.endpoints[0] ?? '').port));
    direct = new Etcd3({ hosts: [...etcd.endpoints] });
    backend = await openEtcdBackend({ endpoints: [proxy.url], prefix: PREFIX, compactIntervalMs: 0, requestTimeoutMs: 3000 });
    durable = await openDurableStore({ backend, space: 'source' });
  });
  afterAll(async () => {
    await durable?.stop();
    await backend?.close();
    direct?.close();
    await proxy?.down();
    await etcd?.stop();
  });

  it('case 1: the cache lists again and its watchers see what they missed', async () => {
    const { store } = durable;
    for (const name of ['keep', 'change', 'remove']) await store.create(REF, JSON.parse(configMap(name, 'v1')));
    const events: WatchEvent[] = [];
    await store.watch({ ...REF }, { resourceVersion: await store.resourceVersion() }, (e) => events.push(e));

    await proxy.down();
    await direct.put(`${KEYS}change`).value(configMap('change', 'v2')).exec();
    await direct.delete().key(`${KEYS}remove`).exec();
    await direct.put(`${KEYS}added`).value(configMap('added', 'v1')).exec();
    const { header } = await direct.get(`${KEYS}keep`).exec().then((r) => r);
    await direct.put(`${PREFIX}/elsewhere`).value('x').exec();
    await direct.kv.compact({ revision: String(Number(header.revision) + 1) });
    await proxy.up();

    await eventually(async () => {
      const names = (await store.list({ ...REF })).items.map((o) => `${o.metadata.name}=${String((o['data'] as { value: string }).value)}`);
      expect(names).toEqual(['added=v1', 'change=v2', 'keep=v1']);
    });
    await eventually(() => expect(events.map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual(['ADDED added', 'DELETED remove', 'MODIFIED change']));
    const created = await store.create(REF, JSON.parse(configMap('after', 'v1')));
    expect((await store.get({ ...REF, namespace: 'default', name: 'after' })).metadata.uid).toBe(created.metadata.uid);
  });
});
