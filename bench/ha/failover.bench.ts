// Failover of replicas on one etcd: one etcd member and three cachegate replicas (`npm start`'s
// command, the embedded source on, ha.leaseSeconds at its default of 10) replicating ConfigMaps.
// Each round kills the leader with SIGKILL, at once creates a ConfigMap through a surviving
// replica, and times kill → that ConfigMap's copy served by the surviving replicas (which only a
// new leader writes); the killed replica is started again before the next round. Prints every
// round, the median, and the goal (leaseSeconds + 2 s).
// Run: npm run bench:failover (env ROUNDS 5, LEASE_SECONDS 10).

import { startEtcd } from '../../test/helpers/etcd-cluster.js';
import { ReportRows } from '../lib/report-rows.js';
import { createConfigMapCcr, leads, post, startReplicas, waitFor } from './replica-processes.js';
import type { Replica, ReplicaSet } from './replica-processes.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const LEASE_SECONDS = Number(process.env['LEASE_SECONDS'] ?? 10);
const CONFIGMAPS = '/clusters/root/api/v1/namespaces/default/configmaps';

async function copied(replica: Replica, name: string): Promise<boolean> {
  const res = await fetch(`${replica.url}/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects?labelSelector=bench%3D${name}`);
  return res.status === 200 && ((await res.json()) as { items: unknown[] }).items.length > 0;
}

/** round kills the leader and times until a ConfigMap created right after is copied on the survivors. */
async function round(set: ReplicaSet, i: number): Promise<number> {
  const replicas = set.replicas;
  let leader: Replica | undefined;
  await waitFor(async () => (leader = (await Promise.all(replicas.map(async (r) => ((await leads(r)) ? r : undefined)))).find(Boolean)) !== undefined, 'a leader');
  const dead = leader as Replica;
  const survivors = replicas.filter((r) => r !== dead);
  const name = `failover-${i}`;
  const killedAt = performance.now();
  dead.child.kill('SIGKILL');
  await post(`${survivors[0]?.url}${CONFIGMAPS}`, { metadata: { name, labels: { bench: name } } });
  await Promise.all(survivors.map((r) => waitFor(() => copied(r, name), `the copy of ${name} on ${r.url}`)));
  const ms = performance.now() - killedAt;
  await new Promise((resolve) => (dead.child.exitCode !== null || dead.child.signalCode !== null ? resolve(undefined) : dead.child.once('exit', resolve)));
  await set.restart(dead);
  return ms;
}

async function main(): Promise<void> {
  const etcd = await startEtcd({ members: 1 });
  let set: ReplicaSet | undefined;
  try {
    set = await startReplicas(3, { store: { backend: 'etcd', etcd: { endpoints: etcd.endpoints, prefix: '/failover' } }, ha: { leaseSeconds: LEASE_SECONDS } });
    await createConfigMapCcr(set.replicas[0] as Replica);
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      times.push(await round(set, i));
      console.log(`round ${i + 1}: ${(times[i] ?? 0).toFixed(0)} ms`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
    const goalMs = (LEASE_SECONDS + 2) * 1000;
    const rows = new ReportRows();
    rows.add(`failover, 3 replicas, ha.leaseSeconds ${LEASE_SECONDS}: kill -9 of the leader → a copy written by the new leader (median of ${ROUNDS})`, `${(median / 1000).toFixed(2)} s (rounds: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s)`, `≤ ${goalMs / 1000} s`, median <= goalMs);
    rows.print();
  } finally {
    set?.stop();
    await etcd.stop();
  }
}

await main();
