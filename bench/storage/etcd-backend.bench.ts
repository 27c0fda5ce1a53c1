// Benchmark of the etcd backend alone (one etcd member the bench starts, this process as its only
// client): N keys of ~1.8 KB values (the size of a replicated copy), then updates at RATE per second
// for SECONDS, each timed from commit() to its acknowledgement and to its arrival on a feed, with
// the CPU both processes spent per write and how many commits shared a transaction. It separates
// what etcd and the gRPC client cost from the rest of the system bench's replication path.
// Run: npx tsx bench/storage/etcd-backend.bench.ts (env N 100000, RATE 2000, SECONDS 10).

import { readFileSync } from 'node:fs';
import { openEtcdBackend } from '../../src/storage/etcd/etcd-backend.js';
import type { EtcdBackend } from '../../src/storage/etcd/etcd-backend.js';
import { startEtcd } from '../../test/helpers/etcd-cluster.js';
import { benchObject } from '../lib/bench-objects.js';
import { ReportRows } from '../lib/report-rows.js';
import { percentile } from '../lib/stats.js';

const N = Number(process.env['N'] ?? 100_000);
const RATE = Number(process.env['RATE'] ?? 2000);
const SECONDS = Number(process.env['SECONDS'] ?? 10);
const PREFIX = '/bench/';
const SEED_BATCH = 2000;

const value = JSON.stringify({ ...benchObject('widget', 1, 'c'), padding: 'x'.repeat(1000) });
const keyOf = (i: number): string => `${PREFIX}${i}`;

/** cpuMsOf reads a process's user + system CPU time from /proc, in ms (Linux clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function seed(backend: EtcdBackend, revisions: Map<string, number>): Promise<void> {
  for (let from = 0; from < N; from += SEED_BATCH) {
    await Promise.all(Array.from({ length: Math.min(SEED_BATCH, N - from) }, async (_, j) => {
      const key = keyOf(from + j);
      const result = await backend.commit({ kind: 'create', key, value });
      if (result.ok) revisions.set(key, result.revision);
    }));
  }
}

/** Timings of the steady run: per write, ack and feed latencies in ms. */
interface Timings {
  readonly ack: number[];
  readonly feed: number[];
  readonly transactions: Set<number>;
}

async function steadyUpdates(backend: EtcdBackend, revisions: Map<string, number>, sentAt: Map<number, number>, timings: Timings): Promise<number> {
  const total = RATE * SECONDS;
  let sent = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * RATE));
      for (; sent < due; sent++) {
        const key = keyOf(sent % N);
        const expected = revisions.get(key) ?? 0;
        const started = performance.now();
        void backend.commit({ kind: 'update', key, value, expected }).then((result) => {
          timings.ack.push(performance.now() - started);
          if (!result.ok) return;
          revisions.set(key, result.revision);
          timings.transactions.add(result.revision);
          sentAt.set(result.revision, started);
        });
      }
      if (sent >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 1);
  });
  return total;
}

async function main(): Promise<void> {
  const cluster = await startEtcd({ members: 1 });
  const member = cluster.members[0];
  if (member === undefined) throw new Error('etcd started without a member');
  const backend = await openEtcdBackend({ endpoints: cluster.endpoints, prefix: '/cachegate-bench' });
  try {
    const revisions = new Map<string, number>();
    const seedStart = performance.now();
    await seed(backend, revisions);
    const seedMs = performance.now() - seedStart;
    // The feed's timing is per revision: commits that shared a transaction arrive together.
    const sentAt = new Map<number, number>();
    const timings: Timings = { ack: [], feed: [], transactions: new Set() };
    const feed = backend.watch(PREFIX, await backend.currentRevision(), {
      changes: (changes) => {
        const now = performance.now();
        for (const change of changes) {
          const started = sentAt.get(change.revision);
          if (started !== undefined) timings.feed.push(now - started);
        }
      },
      compacted: () => undefined,
    });
    const cpu0 = process.cpuUsage();
    const etcd0 = cpuMsOf(member.pid);
    const total = await steadyUpdates(backend, revisions, sentAt, timings);
    while (timings.ack.length < total) await new Promise((resolve) => setTimeout(resolve, 10));
    const cpu = process.cpuUsage(cpu0);
    const etcdMs = cpuMsOf(member.pid) - etcd0;
    await feed.stop();
    const rows = new ReportRows();
    const sorted = (values: number[]): number[] => [...values].sort((a, b) => a - b);
    const ack = sorted(timings.ack);
    const fed = sorted(timings.feed);
    const ms = (v: number): string => `${v.toFixed(1)} ms`;
    rows.add(`seed: ${N.toLocaleString('en-US')} creates, ${SEED_BATCH} at a time`, `${Math.round(N / (seedMs / 1000)).toLocaleString('en-US')} commits/s`);
    rows.add(`commit → acknowledged at ${RATE}/s`, `p50 ${ms(percentile(ack, 0.5))} / p99 ${ms(percentile(ack, 0.99))} / max ${ms(ack.at(-1) ?? NaN)}`);
    rows.add(`commit → on a feed at ${RATE}/s (writes whose feed event came after their ack)`, `p50 ${ms(percentile(fed, 0.5))} / p99 ${ms(percentile(fed, 0.99))} / max ${ms(fed.at(-1) ?? NaN)} (${fed.length} timed)`);
    rows.add('commits per transaction', (total / timings.transactions.size).toFixed(1));
    rows.add('client CPU per write (this process: gRPC, batching, feed decoding)', `${Math.round((cpu.user + cpu.system) / total)} µs`);
    rows.add('etcd CPU per write', `${Math.round((etcdMs * 1000) / total)} µs`);
    rows.print();
  } finally {
    await backend.close();
    await cluster.stop();
  }
}

await main();
