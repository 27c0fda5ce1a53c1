// cachegate replicas on one etcd, as the HA benchmarks start them: each one `npm start`'s command
// (node with tsx, src/main.ts) on a port of its own, with one config file naming the etcd.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitReadyz } from '../../test/helpers/process.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const POLL_MS = 20;

/** Replica is one cachegate process on a fixed port. */
export interface Replica {
  readonly url: string;
  readonly port: number;
  child: ChildProcess;
}

/** ReplicaSet is the running replicas and their shared config file. */
export interface ReplicaSet {
  readonly replicas: Replica[];
  readonly config: string;
  /** restart starts a replica again on its port (after it was killed) and waits until it is ready. */
  restart(replica: Replica): Promise<void>;
  stop(): void;
}

/** startReplicas writes the config and starts count replicas, ready when it resolves. */
export async function startReplicas(count: number, fields: Record<string, unknown>): Promise<ReplicaSet> {
  const dir = mkdtempSync(join(tmpdir(), 'cachegate-replicas-'));
  const config = join(dir, 'cachegate.json');
  writeFileSync(config, JSON.stringify(fields));
  const replicas: Replica[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    replicas.push({ url: `http://127.0.0.1:${port}`, port, child: launch(port, config) });
  }
  await Promise.all(replicas.map((r) => waitReadyz(r.url)));
  return {
    replicas,
    config,
    async restart(replica) {
      replica.child = launch(replica.port, config);
      await waitReadyz(replica.url);
    },
    stop() {
      for (const r of replicas) r.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function launch(port: number, config: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', String(port), '--config', config], {
    cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** leads tells whether a replica says it leads (false when it does not answer). */
export async function leads(replica: Replica): Promise<boolean> {
  try {
    return /^cachegate_leader 1$/m.test(await (await fetch(`${replica.url}/metrics`)).text());
  } catch {
    return false;
  }
}

/** post sends a JSON body and expects 201. */
export async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
}

/** waitFor polls check until it holds, or throws naming what it waited for. */
export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** createConfigMapCcr makes the replicas copy every ConfigMap of the embedded source. */
export async function createConfigMapCcr(replica: Replica): Promise<void> {
  await post(`${replica.url}/clusters/root/apis/cache.kcp.io/v1alpha1/clustercachedresources`, {
    apiVersion: 'cache.kcp.io/v1alpha1', kind: 'ClusterCachedResource', metadata: { name: 'configmaps' }, spec: { group: '', version: 'v1', resource: 'configmaps' },
  });
}
