// Consistent reads on replicas: one etcd member and three cachegate replicas (`npm start`'s
// command) replicating OBJECTS ConfigMaps. On one replica, point reads of random ConfigMaps are
// measured plain (`consistent=false`: what the replica holds) and consistent (the default: wait
// for etcd's revision), alternating ROUNDS times in the same run; then the read throughput of the
// three replicas loaded at once against one replica alone. Prints the figures and the goals:
// consistent p50 ≤ plain p50 + 1 ms, consistent throughput ≥ 0.8x plain.
// Run: npm run bench:consistent-reads (env OBJECTS 2000, SECONDS 10, CONNECTIONS 16, ROUNDS 2).

import { startEtcd } from '../../test/helpers/etcd-cluster.js';
import { measure, measureTogether } from '../lib/load-generator.js';
import type { LoadRequest, LoadResult } from '../lib/load-generator.js';
import { ReportRows } from '../lib/report-rows.js';
import { createConfigMapCcr, post, startReplicas, waitFor } from './replica-processes.js';
import type { Replica, ReplicaSet } from './replica-processes.js';

const OBJECTS = Number(process.env['OBJECTS'] ?? 2000);
const SECONDS = Number(process.env['SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['CONNECTIONS'] ?? 16);
const ROUNDS = Number(process.env['ROUNDS'] ?? 2);
const CONFIGMAPS = '/clusters/root/api/v1/namespaces/default/configmaps';
const CREATE_CONCURRENCY = 16;

function pointReads(replica: Replica, consistent: boolean): LoadRequest {
  const query = `cluster=root&namespace=default${consistent ? '' : '&consistent=false'}`;
  return { url: replica.url, spread: { pathFormat: `/v1/objects/core/v1/configmaps/cm-%05d?${query}`, count: OBJECTS } };
}

async function seed(replicas: readonly Replica[]): Promise<void> {
  const first = replicas[0] as Replica;
  await createConfigMapCcr(first);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < OBJECTS; i = next++) await post(`${first.url}${CONFIGMAPS}`, { metadata: { name: `cm-${String(i).padStart(5, '0')}` }, data: { i: String(i) } });
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
  const last = `cm-${String(OBJECTS - 1).padStart(5, '0')}`;
  for (const r of replicas) {
    await waitFor(async () => (await fetch(`${r.url}/v1/objects/core/v1/configmaps/${last}?cluster=root&namespace=default&consistent=false`)).status === 200, `the copies on ${r.url}`);
  }
}

function mean(results: readonly LoadResult[], pick: (r: LoadResult) => number): number {
  return results.reduce((sum, r) => sum + pick(r), 0) / results.length;
}

async function main(): Promise<void> {
  const etcd = await startEtcd({ members: 1 });
  let set: ReplicaSet | undefined;
  try {
    set = await startReplicas(3, { store: { backend: 'etcd', etcd: { endpoints: etcd.endpoints, prefix: '/consistent-reads' } } });
    await seed(set.replicas);
    const reader = set.replicas[1] as Replica;
    const pid = reader.child.pid;
    const plain: LoadResult[] = [];
    const consistent: LoadResult[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      plain.push(await measure(pointReads(reader, false), CONNECTIONS, SECONDS, pid));
      consistent.push(await measure(pointReads(reader, true), CONNECTIONS, SECONDS, pid));
      console.log(`round ${i + 1}: plain ${plain[i]?.rps.toFixed(0)}/s p50 ${plain[i]?.p50.toFixed(2)} ms; consistent ${consistent[i]?.rps.toFixed(0)}/s p50 ${consistent[i]?.p50.toFixed(2)} ms`);
    }
    const one = await measure(pointReads(reader, true), CONNECTIONS, SECONDS);
    const three = await measureTogether(set.replicas.map((r) => pointReads(r, true)), CONNECTIONS, SECONDS);
    const threeRps = three.reduce((sum, r) => sum + r.rps, 0);

    const overheadMs = mean(consistent, (r) => r.p50) - mean(plain, (r) => r.p50);
    const ratio = mean(consistent, (r) => r.rps) / mean(plain, (r) => r.rps);
    const errors = [...plain, ...consistent, one, ...three].reduce((sum, r) => sum + r.errors, 0);
    const rows = new ReportRows();
    const where = `${OBJECTS} ConfigMaps, ${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS}`;
    rows.add(`point read on a replica, plain (consistent=false), ${where}`, `${mean(plain, (r) => r.rps).toFixed(0)}/s, p50 ${mean(plain, (r) => r.p50).toFixed(2)} ms, p99 ${mean(plain, (r) => r.p99).toFixed(2)} ms, ${mean(plain, (r) => r.serverCpuUs ?? NaN).toFixed(0)} µs CPU/read`, 'reported', true);
    rows.add(`point read on a replica, consistent (default), ${where}`, `${mean(consistent, (r) => r.rps).toFixed(0)}/s, p50 ${mean(consistent, (r) => r.p50).toFixed(2)} ms, p99 ${mean(consistent, (r) => r.p99).toFixed(2)} ms, ${mean(consistent, (r) => r.serverCpuUs ?? NaN).toFixed(0)} µs CPU/read`, 'reported', true);
    rows.add('consistent vs plain point read: p50 overhead', `${overheadMs.toFixed(2)} ms`, '≤ 1 ms', overheadMs <= 1);
    rows.add('consistent vs plain point read: throughput', `${ratio.toFixed(2)}x`, '≥ 0.8x', ratio >= 0.8);
    rows.add('consistent point reads: 3 replicas loaded at once vs 1 (this machine\'s cores are shared by all)', `${threeRps.toFixed(0)}/s vs ${one.rps.toFixed(0)}/s (${(threeRps / one.rps).toFixed(2)}x)`, 'reported', true);
    rows.add('errors (non-2xx) in every run', String(errors), '0', errors === 0);
    rows.print();
  } finally {
    set?.stop();
    await etcd.stop();
  }
}

await main();
