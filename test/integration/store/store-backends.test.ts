// The store conformance cases on the memory store and on durable stores over the local database
// (a fresh directory per case) and over a real etcd (a fresh key prefix per case).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Backend } from '../../../src/storage/backend.js';
import { openEtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import { openLocalBackend } from '../../../src/storage/local/local-backend.js';
import { openDurableStore } from '../../../src/store/durable-store.js';
import { MemoryStore } from '../../../src/store/memory-store.js';
import { startEtcd } from '../../helpers/etcd-cluster.js';
import type { EtcdCluster } from '../../helpers/etcd-cluster.js';
import { describeStoreConformance } from './store-conformance.js';
import type { StoreUnderTest } from './store-conformance.js';

async function durable(openBackend: () => Promise<Backend>): Promise<StoreUnderTest> {
  const backend = await openBackend();
  // Waits for the feed are bounded by 10 s in production; here a wait that only a timeout ends
  // would outlast the test's own timeout, so a write must never depend on one to go on.
  const opened = await openDurableStore({ backend, space: 'source', feedWaitMs: 10 * 60_000 });
  return {
    store: opened.store,
    close: async () => {
      await opened.stop();
      await backend.close();
    },
    reopen: async () => {
      await opened.stop();
      await backend.close();
      return durable(openBackend);
    },
  };
}

describeStoreConformance('memory', async () => ({ store: new MemoryStore(), close: async () => undefined }));

describeStoreConformance('local', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cachegate-store-'));
  return durable(() => openLocalBackend({ dataDir, fsync: false }));
});

let etcd: EtcdCluster;
let prefixes = 0;
beforeAll(async () => {
  etcd = await startEtcd({ members: 1 });
});
afterAll(async () => {
  await etcd?.stop();
});
describeStoreConformance('etcd', async () => {
  const prefix = `/conformance-${++prefixes}`;
  return durable(() => openEtcdBackend({ endpoints: etcd.endpoints, prefix, compactIntervalMs: 0 }));
});
describeStoreConformance('etcd, client in a thread', async () => {
  const prefix = `/conformance-${++prefixes}`;
  return durable(() => openEtcdBackend({ endpoints: etcd.endpoints, prefix, compactIntervalMs: 0, clientThread: true }));
});
