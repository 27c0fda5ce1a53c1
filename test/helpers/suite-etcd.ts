// One etcd member and a raw etcd3 client to it for a whole test file: started before the file's
// tests, stopped after them. Kept apart from etcd-cluster.ts, which the benches use outside vitest.

import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll } from 'vitest';
import { startEtcd } from './etcd-cluster.js';
import type { EtcdCluster } from './etcd-cluster.js';

/** SuiteEtcd is the file's member and client; read them inside tests and hooks, once started. */
export interface SuiteEtcd {
  readonly cluster: EtcdCluster;
  readonly raw: Etcd3;
}

/** suiteEtcd registers the hooks that start and stop the member, and returns its handles. */
export function suiteEtcd(): SuiteEtcd {
  let cluster: EtcdCluster | undefined;
  let raw: Etcd3 | undefined;
  beforeAll(async () => {
    cluster = await startEtcd({ members: 1 });
    raw = new Etcd3({ hosts: [...cluster.endpoints] });
  });
  afterAll(async () => {
    raw?.close();
    await cluster?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite etcd is not started yet: read it inside a test or hook');
    return value;
  };
  return {
    get cluster() {
      return started(cluster);
    },
    get raw() {
      return started(raw);
    },
  };
}
