// Starting and talking to the system bench's two processes: the source (source-process.ts) and
// the measured cachegate (measured-process.ts, i.e. src/main.ts with the embedded source off and
// the source reached through a kubeconfig, as a production deployment runs).

import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '../lib/bench-http.js';
import type { MemoryReply } from './measured-process.js';
import type { SourceReply, SourceRequest } from './source-protocol.js';

/** SHARD is the measured cachegate's name for the source, i.e. the shard of every copy. */
export const SHARD = 'remote';

const HERE = new URL('.', import.meta.url).pathname;

/** SourceProcess is a running source; request() sends one request and resolves with its reply. */
export interface SourceProcess {
  readonly url: string;
  request(req: SourceRequest): Promise<SourceReply>;
  stop(): Promise<void>;
}

/** startSource forks the source process with heapMb of old space. */
export async function startSource(heapMb: number): Promise<SourceProcess> {
  const child = fork(join(HERE, 'source-process.ts'), [], { execArgv: ['--import', 'tsx', `--max-old-space-size=${heapMb}`], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (): Promise<SourceReply> => new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`source process exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (reply: SourceReply) => {
      child.off('exit', onExit);
      if (reply.type === 'failed') reject(new Error(`source process: ${reply.error}`));
      else resolve(reply);
    });
  });
  const listening = await next();
  if (listening.type !== 'listening') throw new Error(`source process said ${listening.type} first`);
  return {
    url: listening.url,
    request: (req) => {
      const reply = next();
      child.send(req);
      return reply;
    },
    stop: () => stopChild(child),
  };
}

/** Memory is the measured process's memory: heap after a full GC, and RSS from /proc right after it. */
export interface Memory {
  readonly rss: number;
  readonly heapUsed: number;
}

/** MeasuredProcess is a running cachegate under measurement. */
export interface MeasuredProcess {
  readonly url: string;
  readonly pid: number;
  memory(): Promise<Memory>;
  stop(): Promise<void>;
}

/** startMeasured runs cachegate (embedded source off) against the source at sourceUrl. */
export async function startMeasured(sourceUrl: string, heapMb?: number): Promise<MeasuredProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cachegate-system-bench-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, [
    'apiVersion: v1', 'kind: Config',
    `clusters: [{name: source, cluster: {server: "${sourceUrl}"}}]`,
    'users: [{name: anonymous, user: {}}]',
    'contexts: [{name: source, context: {cluster: source, user: anonymous}}]',
    'current-context: source',
  ].join('\n'));
  const config = join(dir, 'cachegate.json');
  writeFileSync(config, JSON.stringify({ port, logLevel: 'warn', embedded: { enabled: false }, sources: [{ name: SHARD, kind: 'kcp', kubeconfig }] }));
  const heap = heapMb === undefined ? [] : [`--max-old-space-size=${heapMb}`];
  // CPU_PROF=<dir>: each measured process writes a .cpuprofile there when it exits.
  const profile = process.env['CPU_PROF'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['CPU_PROF']}`] : [];
  // NODE_ENV=production, as the image runs it (Dockerfile): libraries skip development checks.
  const child = fork(join(HERE, 'measured-process.ts'), ['--config', config], {
    execArgv: ['--import', 'tsx', '--expose-gc', ...heap, ...profile], stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/readyz`);
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    memory: async () => {
      const reply = new Promise<MemoryReply>((resolve) => child.once('message', (m: MemoryReply) => resolve(m)));
      child.send('memory');
      const { heapUsed } = await reply;
      const rss = vmRss(pid);
      // The forced GCs stall the event loop for seconds at a million objects, and load shedding
      // answers 503 until the stall has passed: wait until the facade serves again.
      await waitFor(`${url}/v1/schemas`);
      return { heapUsed, rss };
    },
    stop: () => stopChild(child),
  };
}

/** vmRss reads a process's resident set size from /proc, in bytes. */
function vmRss(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
