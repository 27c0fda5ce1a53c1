// `npm run cluster`: cachegate as a highly available deployment on this machine, to try it: one
// etcd member and three cachegate replicas (`npm start` each, with the embedded source) on free
// loopback ports, sharing their state in etcd. It prints each replica's URL and which one leads,
// and stops everything on Ctrl-C. Kill the leader (its pid is printed) and watch another take
// over: `curl -s <url>/readyz?verbose` and `cachegate_leader` in `<url>/metrics` say who leads.
// Env REPLICAS (3), LEASE_SECONDS (5).

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd } from '../test/helpers/etcd-cluster.js';
import { freePort, waitReadyz } from '../test/helpers/process.js';

const REPLICAS = Number(process.env['REPLICAS'] ?? 3);
const LEASE_SECONDS = Number(process.env['LEASE_SECONDS'] ?? 5);
const ROOT = new URL('..', import.meta.url).pathname;
/** GLIBC_TUNABLES and --max-semi-space-size: as the image and npm start run cachegate (README, "Runtime and dependency versions"). */
const GLIBC_TUNABLES = 'glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=0';

async function leaderFlag(url: string): Promise<string> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    return text.split('\n').find((line) => line.startsWith('cachegate_leader '))?.endsWith(' 1') ? 'leads' : 'follows';
  } catch {
    return 'down';
  }
}

async function main(): Promise<void> {
  const etcd = await startEtcd({ members: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'cachegate-cluster-'));
  const config = join(dir, 'cachegate.json');
  writeFileSync(config, JSON.stringify({ store: { backend: 'etcd', etcd: { endpoints: etcd.endpoints, prefix: '/cachegate' } }, ha: { leaseSeconds: LEASE_SECONDS } }));
  const replicas: Array<{ url: string; child: ChildProcess }> = [];
  for (let i = 0; i < REPLICAS; i++) {
    const port = await freePort();
    const child = spawn(process.execPath, ['--max-semi-space-size=16', '--import', 'tsx', 'src/main.ts', '--port', String(port), '--config', config], {
      cwd: ROOT, env: { ...process.env, GLIBC_TUNABLES, LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn' }, stdio: ['ignore', 'inherit', 'inherit'],
    });
    replicas.push({ url: `http://127.0.0.1:${port}`, child });
  }
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    for (const replica of replicas) replica.child.kill('SIGTERM');
    await Promise.all(replicas.map((replica) => new Promise((resolve) => (replica.child.exitCode !== null ? resolve(undefined) : replica.child.once('exit', resolve)))));
    await etcd.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => void stop().then(() => process.exit(0)));
  process.on('SIGTERM', () => void stop().then(() => process.exit(0)));
  await Promise.all(replicas.map((replica) => waitReadyz(replica.url)));
  console.log(`etcd: ${etcd.endpoints.join(', ')}`);
  for (const replica of replicas) console.log(`replica ${replica.url} (pid ${replica.child.pid}): ${await leaderFlag(replica.url)}`);
  console.log('cluster ready; Ctrl-C stops it');
}

await main();
