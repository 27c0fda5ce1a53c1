// cachegate on a three-member etcd, one member (a follower, then the leader) killed (kill -9) while clients write through the
// embedded source and read from it: every write acknowledged with 201 is stored (in cachegate and
// in etcd), no read fails, and writes go on against the two members left.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3 } from 'etcd3';
import { request } from '../../helpers/kube-http.js';
import { startEtcd } from '../../helpers/etcd-cluster.js';
import type { EtcdCluster } from '../../helpers/etcd-cluster.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const PREFIX = '/member-loss';
// Each role gets its own three members, so the second run does not start on a damaged cluster.
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const WRITES = 600;
const WRITERS = 12;

describe.each(['follower', 'leader'] as const)('cachegate on three etcd members, the %s killed during writes', (role) => {
  let etcd: EtcdCluster;
  let app: TestApp;

  beforeAll(async () => {
    etcd = await startEtcd({ members: 3 });
    app = await startTestApp({ store: { backend: 'etcd', etcd: { endpoints: etcd.endpoints, prefix: PREFIX, compactIntervalMinutes: 0 } } });
  });
  afterAll(async () => {
    await app?.stop();
    await etcd?.stop();
  });

  it('case 1: no acknowledged write is lost and no read fails', async () => {
    const acked: string[] = [];
    const refused: number[] = [];
    const failedReads: number[] = [];
    let next = 0;
    let killed: Promise<void> | undefined;
    const leader = await etcd.leader();
    const victim = role === 'leader' ? leader : (etcd.members.find((m) => m !== leader) ?? leader);
    const writer = async (): Promise<void> => {
      while (next < WRITES) {
        const name = `cm-${next++}`;
        const res = await request('POST', `${app.clusterUrl('root')}${CONFIGMAPS}`, { metadata: { name }, data: { name } });
        if (res.status === 201) acked.push(name);
        else refused.push(res.status);
        const read = await request('GET', `${app.clusterUrl('root')}${CONFIGMAPS}?limit=5`);
        if (read.status !== 200) failedReads.push(read.status);
        if (killed === undefined && acked.length >= WRITES / 4) killed = victim.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    await killed;

    expect(failedReads).toEqual([]);
    // A write in flight on the killed member may be refused (503, retry): never anything else.
    expect(refused.filter((status) => status !== 503)).toEqual([]);
    expect(acked.length).toBeGreaterThanOrEqual(WRITES - refused.length);
    const list = await request('GET', `${app.clusterUrl('root')}${CONFIGMAPS}`);
    const served = new Set((list.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name));
    expect(acked.filter((name) => !served.has(name))).toEqual([]);

    const client = new Etcd3({ hosts: etcd.members.filter((m) => m !== victim).map((m) => m.clientUrl) });
    try {
      const keys = await client.getAll().prefix(`${PREFIX}/source/core/configmaps/root/default/`).keys();
      const stored = new Set(keys.map((k) => k.slice(k.lastIndexOf('/') + 1)));
      expect(acked.filter((name) => !stored.has(name))).toEqual([]);
    } finally {
      client.close();
    }
  });
});
