// Failover of replicas on one etcd: one etcd member and three cachegate replicas (`npm start`'s
// command, the embedded source on, ha.leaseSeconds at its default of 10) replicating ConfigMaps.
// Each round kills the leader with SIGKILL, at once creates a ConfigMap through a surviving
// replica, and times kill → that ConfigMap's copy served by the surviving replicas (which only a
// new leader writes); the killed replica is started again before the next round. Prints every
// round, the median, and the goal (leaseSeconds + 2 s).
// Run: npm run bench:failover (env ROUNDS 5, LEASE_SECONDS 10).

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd } from '../../test/helpers/etcd-cluster.js';
import { freePort, waitReady } from '../../test/helpers/process.js';
import { ReportRows } from '../lib/report-rows.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const LEASE_SECONDS = Number(process.env['LEASE_SECONDS'] ?? 10);
const ROOT = new URL('../..', import.meta.url).pathname;
const CONFIGMAPS = '/clusters/root/api/v1/namespaces/default/configmaps';
const POLL_MS = 20;

/** Replica is one cachegate process on a fixed port. */
interface Replica {
  readonly url: string;
  readonly port: number;
  child: ChildProcess;
}

function launch(port: number, config: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', String(port), '--config', config], {
    cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function leads(replica: Replica): Promise<boolean> {
  try {
    return /^cachegate_leader 1$/m.test(await (await fetch(`${replica.url}/metrics`)).text());
  } catch {
    return false;
  }
}

async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
}

async function copied(replica: Replica, name: string): Promise<boolean> {
  const res = await fetch(`${replica.url}/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects?labelSelector=bench%3D${name}`);
  return res.status === 200 && ((await res.json()) as { items: unknown[] }).items.length > 0;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** round kills the leader and times until a ConfigMap created right after is copied on the survivors. */
async function round(replicas: Replica[], config: string, i: number): Promise<number> {
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
  dead.child = launch(dead.port, config);
  await waitReady(dead.url);
  return ms;
}

async function main(): Promise<void> {
  const etcd = await startEtcd({ members: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'cachegate-failover-'));
  const config = join(dir, 'cachegate.json');
  writeFileSync(config, JSON.stringify({ store: { backend: 'etcd', etcd: { endpoints: etcd.endpoints, prefix: '/failover' } }, ha: { leaseSeconds: LEASE_SECONDS } }));
  const replicas: Replica[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      replicas.push({ url: `http://127.0.0.1:${port}`, port, child: launch(port, config) });
    }
    await Promise.all(replicas.map((r) => waitReady(r.url)));
    await post(`${replicas[0]?.url}/clusters/root/apis/cache.kcp.io/v1alpha1/clustercachedresources`, {
      apiVersion: 'cache.kcp.io/v1alpha1', kind: 'ClusterCachedResource', metadata: { name: 'configmaps' }, spec: { group: '', version: 'v1', resource: 'configmaps' },
    });
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      times.push(await round(replicas, config, i));
      console.log(`round ${i + 1}: ${(times[i] ?? 0).toFixed(0)} ms`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
    const goalMs = (LEASE_SECONDS + 2) * 1000;
    const rows = new ReportRows();
    rows.add(`failover, 3 replicas, ha.leaseSeconds ${LEASE_SECONDS}: kill -9 of the leader → a copy written by the new leader (median of ${ROUNDS})`, `${(median / 1000).toFixed(2)} s (rounds: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s)`, `≤ ${goalMs / 1000} s`, median <= goalMs);
    rows.print();
  } finally {
    for (const r of replicas) r.child.kill('SIGKILL');
    await etcd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
