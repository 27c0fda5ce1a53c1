// Consistent reads on replicas: one etcd member and three cachegate replicas (`npm start`'s
// command) replicating OBJECTS ConfigMaps. On one replica, point reads of random ConfigMaps are
// measured plain (`consistent=false`: what the replica holds) and consistent (the default: wait
// for etcd's revision), alternating ROUNDS times in the same run, with 16 connections and with 64;
// then the read throughput of the three replicas loaded at once against one replica alone.
// Prints the figures and the goals: consistent p50 ≤ plain p50 + 1 ms at both loads; consistent
// throughput ≥ 0.8x plain at 64 connections, where reads saturate the machine. With 16 each
// connection waits out one etcd round trip per read, so that load measures latency, not capacity.
// Run: npm run bench:consistent-reads (env OBJECTS 2000, SECONDS 10, ROUNDS 2).

import { startEtcd } from '../../test/helpers/etcd-cluster.js';
import { measure, measureTogether } from '../lib/load-generator.js';
import type { LoadRequest, LoadResult } from '../lib/load-generator.js';
import { ReportRows } from '../lib/report-rows.js';
import { createConfigMapCcr, post, startReplicas, waitFor } from './replica-processes.js';
import type { Replica, ReplicaSet } from './replica-processes.js';

const OBJECTS = Number(process.env['OBJECTS'] ?? 2000);
const SECONDS = Number(process.env['SECONDS'] ?? 10);
const LOADS = [16, 64];
const SATURATING = 64;
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

/** compare alternates plain and consistent reads on one replica and adds their rows. */
async function compare(reader: Replica, connections: number, rows: ReportRows): Promise<void> {
  const pid = reader.child.pid;
  const plain: LoadResult[] = [];
  const consistent: LoadResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    plain.push(await measure(pointReads(reader, false), connections, SECONDS, pid));
    consistent.push(await measure(pointReads(reader, true), connections, SECONDS, pid));
    console.log(`${connections} connections, round ${i + 1}: plain ${plain[i]?.rps.toFixed(0)}/s p50 ${plain[i]?.p50.toFixed(2)} ms; consistent ${consistent[i]?.rps.toFixed(0)}/s p50 ${consistent[i]?.p50.toFixed(2)} ms`);
  }
  const figures = (results: readonly LoadResult[]): string =>
    `${mean(results, (r) => r.rps).toFixed(0)}/s, p50 ${mean(results, (r) => r.p50).toFixed(2)} ms, p99 ${mean(results, (r) => r.p99).toFixed(2)} ms, ${mean(results, (r) => r.serverCpuUs ?? NaN).toFixed(0)} µs CPU/read`;
  const where = `${OBJECTS} ConfigMaps, ${connections} connections, ${SECONDS} s × ${ROUNDS}`;
  rows.add(`point read on a replica, plain (consistent=false), ${where}`, figures(plain), 'reported', true);
  rows.add(`point read on a replica, consistent (default), ${where}`, figures(consistent), 'reported', true);
  const overheadMs = mean(consistent, (r) => r.p50) - mean(plain, (r) => r.p50);
  const ratio = mean(consistent, (r) => r.rps) / mean(plain, (r) => r.rps);
  rows.add(`consistent vs plain, ${connections} connections: p50 overhead`, `${overheadMs.toFixed(2)} ms`, '≤ 1 ms', overheadMs <= 1);
  const saturating = connections >= SATURATING;
  rows.add(`consistent vs plain, ${connections} connections: throughput`, `${ratio.toFixed(2)}x`, saturating ? '≥ 0.8x' : 'reported (latency-bound)', saturating ? ratio >= 0.8 : true);
  const errors = [...plain, ...consistent].reduce((sum, r) => sum + r.errors, 0);
  rows.add(`errors (non-2xx), ${connections} connections`, String(errors), '0', errors === 0);
}

async function main(): Promise<void> {
  const etcd = await startEtcd({ members: 1 });
  let set: ReplicaSet | undefined;
  try {
    set = await startReplicas(3, { store: { backend: 'etcd', etcd: { endpoints: etcd.endpoints, prefix: '/consistent-reads' } } });
    await seed(set.replicas);
    const reader = set.replicas[1] as Replica;
    const rows = new ReportRows();
    for (const connections of LOADS) await compare(reader, connections, rows);
    const one = await measure(pointReads(reader, true), SATURATING, SECONDS);
    const three = await measureTogether(set.replicas.map((r) => pointReads(r, true)), SATURATING, SECONDS);
    const threeRps = three.reduce((sum, r) => sum + r.rps, 0);
    rows.add(`consistent point reads, ${SATURATING} connections each: 3 replicas loaded at once vs 1 (this machine's cores are shared by all)`, `${threeRps.toFixed(0)}/s vs ${one.rps.toFixed(0)}/s (${(threeRps / one.rps).toFixed(2)}x)`, 'reported', true);
    const errors = [one, ...three].reduce((sum, r) => sum + r.errors, 0);
    rows.add('errors (non-2xx) of the replica comparison', String(errors), '0', errors === 0);
    rows.print();
  } finally {
    set?.stop();
    await etcd.stop();
  }
}

await main();
