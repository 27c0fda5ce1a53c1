// A store over etcd whose writes arrive together: etcd commits them in one transaction, so they
// share a resourceVersion. Each object is still updated by its own version, a list holds them all,
// and a watch resumed from the shared version gets the whole group again (a client cut off in the
// middle of it knows only that version), then what followed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { openEtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import type { EtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import { openDurableStore } from '../../../src/store/durable-store.js';
import type { DurableStore } from '../../../src/store/durable-store.js';
import type { WatchEvent } from '../../../src/store/store.js';
import { eventually } from '../../helpers/kube-http.js';
import { startEtcd } from '../../helpers/etcd-cluster.js';
import type { EtcdCluster } from '../../helpers/etcd-cluster.js';

const REF = { cluster: 'c1', group: '', resource: 'configmaps' };

function cm(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { name } };
}

describe('a store over etcd, writes grouped in one transaction', () => {
  let etcd: EtcdCluster;
  let backend: EtcdBackend;
  let durable: DurableStore;

  beforeAll(async () => {
    etcd = await startEtcd({ members: 1 });
    backend = await openEtcdBackend({ endpoints: etcd.endpoints, prefix: '/groups', compactIntervalMs: 0 });
    durable = await openDurableStore({ backend, space: 'source' });
  });
  afterAll(async () => {
    await durable?.stop();
    await backend?.close();
    await etcd?.stop();
  });

  it('case 1: objects created together share a version, update by it, list whole, and a watch from it replays the group', async () => {
    const { store } = durable;
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => store.create(REF, cm(`g-${i}`))));
    const byVersion = new Map<string, string[]>();
    for (const obj of created) byVersion.set(obj.metadata.resourceVersion ?? '', [...(byVersion.get(obj.metadata.resourceVersion ?? '') ?? []), obj.metadata.name ?? '']);
    const [shared, members] = [...byVersion].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(members.length).toBeGreaterThan(1);

    for (const name of members) {
      const current = await store.get({ ...REF, namespace: 'default', name });
      expect(current.metadata.resourceVersion).toBe(shared);
    }
    expect((await store.list({ ...REF })).items).toHaveLength(20);

    const events: WatchEvent[] = [];
    const watch = await store.watch({ ...REF }, { resourceVersion: shared }, (e) => events.push(e));
    const updated = await store.update({ ...REF, namespace: 'default', name: members[0]! }, { ...cm(members[0]!), metadata: { ...cm(members[0]!).metadata, resourceVersion: shared }, data: { changed: 'yes' } });
    expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(Number(shared));
    await eventually(() => expect(events.map((e) => `${e.type} ${e.object.metadata.name}`).at(-1)).toBe(`MODIFIED ${members[0]}`));
    const replayed = events.slice(0, -1).filter((e) => e.object.metadata.resourceVersion === shared).map((e) => e.object.metadata.name).sort();
    expect(replayed).toEqual([...members].sort());
    watch.stop();
  });
});
