// A durable store loads its key space from a paged etcd list, decoding each page as it arrives.
// When the list has to start over (its pinned revision was compacted while the connection was
// down between pages), what the first pass read is void: the store must load the state of the
// second pass only, in its table and in its indexes.
//   case 1: a key deleted and a key added between the passes: the store and its index hold the second pass
//   case 2: the same with the etcd client in a thread

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import type { Backend, EntryReader } from '../../../src/storage/backend.js';
import { openEtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import { LIST_PAGE_SIZE } from '../../../src/storage/etcd/etcd-list.js';
import { openDurableStore } from '../../../src/store/durable-store.js';
import { RawTcpProxy } from '../../helpers/raw-tcp-proxy.js';
import { suiteEtcd } from '../../helpers/suite-etcd.js';

const REF = { cluster: 'c1', group: '', resource: 'configmaps' };
const COUNT = LIST_PAGE_SIZE + 200;
const byColour = (o: KubeObject): readonly string[] => [o.metadata.labels?.['colour'] ?? ''];

function nameOf(i: number): string {
  return `cm-${String(i).padStart(6, '0')}`;
}

function configMap(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { colour: 'blue' } } });
}

/**
 * listCutAfterFirstRead is the backend with one change to its list: the first entry read takes the
 * connection down (the list is then between its first page and the next), and onCut hears it.
 */
function listCutAfterFirstRead(backend: Backend, proxy: RawTcpProxy, onCut: () => void): Backend {
  let cut = false;
  const list = <T>(prefix: string, read?: EntryReader<T>) => backend.list(prefix, (entry) => {
    if (!cut) {
      cut = true;
      void proxy.down().then(onCut);
    }
    return read ? read(entry) : entry;
  });
  return new Proxy(backend, { get: (target, prop, receiver) => (prop === 'list' ? list : Reflect.get(target, prop, receiver)) as unknown });
}

describe('a durable store whose load starts over', () => {
  const etcd = suiteEtcd();

  for (const [i, clientThread] of [false, true].entries()) {
    it(`case ${i + 1}: a key deleted and a key added between the passes: the store and its index hold the second pass${clientThread ? ' (client in a thread)' : ''}`, async () => {
      const prefix = `/list-restart-${i}`;
      const keys = `${prefix}/source/core/configmaps/c1/default/`;
      for (let from = 0; from < COUNT; from += 500) {
        await Promise.all(Array.from({ length: Math.min(500, COUNT - from) }, (_, j) => etcd.raw.put(`${keys}${nameOf(from + j)}`).value(configMap(nameOf(from + j))).exec()));
      }
      const proxy = await RawTcpProxy.start(Number(new URL(etcd.cluster.endpoints[0] ?? '').port));
      const backend = await openEtcdBackend({ endpoints: [proxy.url], prefix, compactIntervalMs: 0, requestTimeoutMs: 20_000, clientThread });
      try {
        // Between the passes, the first key (read in the first pass) goes, another comes, and the
        // revision the first pass was pinned to is compacted away.
        const betweenPasses = async (): Promise<void> => {
          await etcd.raw.delete().key(`${keys}${nameOf(0)}`).exec();
          const added = await etcd.raw.put(`${keys}${nameOf(COUNT)}`).value(configMap(nameOf(COUNT))).exec();
          await etcd.raw.kv.compact({ revision: added.header.revision });
          await proxy.up();
        };
        let between: Promise<void> | undefined;
        const cutting = listCutAfterFirstRead(backend, proxy, () => (between = betweenPasses()));
        const durable = await openDurableStore({ backend: cutting, space: 'source', indexes: [{ ...REF, name: 'colour', fn: byColour }] });
        await between;
        try {
          const names = (await durable.store.list({ ...REF })).items.map((o) => o.metadata.name);
          expect(names).toHaveLength(COUNT);
          expect(names[0]).toBe(nameOf(1));
          expect(names.at(-1)).toBe(nameOf(COUNT));
          const indexed = durable.store.indexed({ ...REF }, 'colour', 'blue').map((o) => o.metadata.name ?? '');
          expect(indexed).toHaveLength(COUNT);
          expect(indexed).not.toContain(nameOf(0));
          expect(indexed).toContain(nameOf(COUNT));
        } finally {
          await durable.stop();
        }
      } finally {
        await backend.close();
        await proxy.down();
      }
    }, 120_000);
  }
});
