// Starting and talking to the system bench's two processes: the source (source-process.ts) and
// the measured cachegate: the compiled build, dist/main.js, as the container image runs it (run.ts
// builds it first), with the embedded source off and the source reached through a kubeconfig,
// as a production deployment runs, plus measured-preload.mjs, which answers memory readings. The measured
// process's store is always named (memory, local or etcd), never the config's default `local` in
// the working directory.

import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '../lib/bench-http.js';
import { STORAGE_THREAD_HEAP_USED_METRIC } from '../../src/metrics/metric-names.js';
import { IDLE_COLLECTION } from '../../src/storage/etcd/idle-collector.js';
import type { SourceReply, SourceRequest } from './source-protocol.js';
import { imageNodeFlags, imageRuntimeEnv } from './image-node-flags.js';

/** SHARD is the measured cachegate's name for the source, i.e. the shard of every copy. */
export const SHARD = 'remote';

const HERE = new URL('.', import.meta.url).pathname;
const COMPILED_MAIN = join(HERE, '..', '..', 'dist', 'main.js');

/** GcTotals is measured-preload.mjs's answer to 'gc': main-thread GC pauses so far, the longest since the last ask, and CPU time. */
export interface GcTotals {
  readonly pausedMs: number;
  readonly longestMs: number;
  readonly cpuMs: number;
}

/** MemoryReply is measured-preload.mjs's answer to 'memory': heap after a full GC, and RSS. */
interface MemoryReply {
  readonly heapUsed: number;
  readonly rss: number;
}

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
    stop: async () => {
      await stopChild(child);
    },
  };
}

/**
 * Memory is the measured process's memory: heap after a full GC (V8's heap and the ArrayBuffers
 * it holds, which live outside it), and RSS from /proc right after
 * it. threadHeapUsed is the heap in use in the etcd backend's client thread (a V8 heap of its
 * own, outside heapUsed; the bench cannot collect it first), 0 without one.
 */
export interface Memory {
  readonly rss: number;
  readonly heapUsed: number;
  readonly threadHeapUsed: number;
}

const THREAD_HEAP_SERIES = new RegExp(`^${STORAGE_THREAD_HEAP_USED_METRIC}\\{[^}]*\\} (\\S+)$`, 'm');

/** threadHeapUsed reads the client thread's heap from /metrics (0 without a thread). */
/** THREAD_REST_MS: the storage thread collects within 1.5 idle periods of quiet (it checks twice a period). */
const THREAD_REST_MS = 1.5 * IDLE_COLLECTION.idleMs + 2000;

async function threadHeapUsed(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(THREAD_HEAP_SERIES.exec(text)?.[1] ?? 0);
}

/** StoreUnderTest is the measured process's `store` backend and what that backend needs. */
export type StoreUnderTest =
  | { readonly backend: 'memory' }
  | { readonly backend: 'local'; readonly dataDir: string; readonly fsync: boolean }
  | { readonly backend: 'etcd'; readonly endpoints: readonly string[]; readonly prefix: string };

/** MeasuredOptions configure one measured cachegate. */
export interface MeasuredOptions {
  readonly store: StoreUnderTest;
  /** heapMb: old-space limit; undefined = Node's default, as `npm start` runs. */
  readonly heapMb?: number;
  /** replicationWorkers overrides `workers.replication`; undefined = the config's default. */
  readonly replicationWorkers?: number;
}

/** StopReport says how a measured process ended after SIGTERM. */
export interface StopReport {
  readonly ms: number;
  /** graceful: it exited by itself, not by the SIGKILL sent 10 s after SIGTERM. */
  readonly graceful: boolean;
  readonly code: number | null;
}

/** MeasuredProcess is a running cachegate under measurement. */
export interface MeasuredProcess {
  readonly url: string;
  readonly pid: number;
  /** readyMs is the time from spawn to the first /readyz 200. */
  readonly readyMs: number;
  memory(): Promise<Memory>;
  /** gc reads the GC pause totals (the longest pause restarts from 0 with each call). */
  gc(): Promise<GcTotals>;
  /** longestLoopDelayMs reads the longest event-loop delay since the last call (the first call: since start). */
  longestLoopDelayMs(): Promise<number>;
  /** reduceMemory runs V8's memory-pressure GC: the young generation shrinks and pooled pages go back to the OS. */
  reduceMemory(): Promise<void>;
  /**
   * memoryAtRest is memory() after reduceMemory(): the state an idle process reaches by itself
   * (V8's memory reducer runs the same GC about 100 s after the last one), without the wait.
   * afterBurst: the process has just done a burst of work; a storage client thread (etcd) gives
   * its garbage back only after a quiet of its own (idle-collector.ts), which is waited for.
   */
  memoryAtRest(opts?: { readonly afterBurst?: boolean }): Promise<Memory>;
  stop(): Promise<StopReport>;
}

const READY_DEADLINE_MS = 180_000;
const READY_POLL_MS = 50;

/**
 * startMeasured runs cachegate (embedded source off) against the source at sourceUrl, with the
 * given store: a restart over durable state is a second call with the same store.
 */
export async function startMeasured(sourceUrl: string, opts: MeasuredOptions): Promise<MeasuredProcess> {
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
  writeFileSync(config, JSON.stringify({
    port, logLevel: 'warn', embedded: { enabled: false }, sources: [{ name: SHARD, kind: 'kcp', kubeconfig }], store: storeSection(opts.store),
    ...(opts.replicationWorkers === undefined ? {} : { workers: { replication: opts.replicationWorkers } }),
  }));
  const heap = opts.heapMb === undefined ? [] : [`--max-old-space-size=${opts.heapMb}`];
  // CPU_PROF=<dir>: each measured process writes a .cpuprofile there when it exits.
  const profile = process.env['CPU_PROF'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['CPU_PROF']}`] : [];
  // The image's node flags, its malloc tunables and NODE_ENV=production, as the image runs it
  // (Dockerfile): libraries skip development checks.
  // CACHEGATE_DATA_DIR would override the config file's dataDir: the store is the config's alone.
  const { CACHEGATE_DATA_DIR: _ignored, ...env } = process.env;
  const spawnedAt = performance.now();
  if (!existsSync(COMPILED_MAIN)) throw new Error(`${COMPILED_MAIN} is missing: run npm run build first (npm run bench does)`);
  const child = fork(COMPILED_MAIN, ['--config', config], {
    execArgv: [...imageNodeFlags(), '--import', join(HERE, 'measured-preload.mjs'), '--expose-gc', ...heap, ...profile], stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...env, ...imageRuntimeEnv(), NODE_ENV: 'production' },
  });
  const url = `http://127.0.0.1:${port}`;
  // The directory holds only the kubeconfig and the config file: gone with the process.
  const stop = async (): Promise<StopReport> => {
    const report = await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
    return report;
  };
  try {
    await waitReady(child, `${url}/readyz`);
  } catch (err) {
    await stop();
    throw err;
  }
  const readyMs = performance.now() - spawnedAt;
  const pid = child.pid ?? 0;
  const memory = async (): Promise<Memory> => {
    const { heapUsed } = await ask<MemoryReply>(child, 'memory');
    const rss = vmRss(pid);
    // The forced GCs stall the event loop for seconds at a million objects, and load shedding
    // answers 503 until the stall has passed: wait until the facade serves again.
    await waitFor(`${url}/v1/schemas`);
    return { heapUsed, rss, threadHeapUsed: await threadHeapUsed(url) };
  };
  const reduceMemory = async (): Promise<void> => {
    await ask<'reduced'>(child, 'reduce');
  };
  return {
    url,
    pid,
    readyMs,
    memory,
    memoryAtRest: async (opts = {}) => {
      if (opts.afterBurst === true && (await threadHeapUsed(url)) > 0) await new Promise((resolve) => setTimeout(resolve, THREAD_REST_MS));
      await reduceMemory();
      return memory();
    },
    gc: () => ask<GcTotals>(child, 'gc'),
    longestLoopDelayMs: async () => (await ask<{ maxMs: number }>(child, 'loop')).maxMs,
    // No request follows to check the facade serves again: the GC is over when the answer comes,
    // and a connection left idle here was reused by a request a minute later, just as the server
    // closed it (keep-alive timeout), failing that request.
    reduceMemory,
    stop,
  };
}

/** ask sends measured-preload.mjs one of its questions and resolves with the answer (one question at a time). */
function ask<T>(child: ChildProcess, question: 'memory' | 'gc' | 'reduce' | 'loop'): Promise<T> {
  const reply = new Promise<T>((resolve) => child.once('message', (m: T) => resolve(m)));
  child.send(question);
  return reply;
}

function storeSection(store: StoreUnderTest): Record<string, unknown> {
  switch (store.backend) {
    case 'memory': return { backend: 'memory' };
    case 'local': return { backend: 'local', dataDir: store.dataDir, fsync: store.fsync };
    case 'etcd': return { backend: 'etcd', etcd: { endpoints: [...store.endpoints], prefix: store.prefix } };
  }
}

/** waitReady polls readyz until it answers 200; it fails at once if the process exits meanwhile. */
async function waitReady(child: ChildProcess, readyz: string): Promise<void> {
  const deadline = performance.now() + READY_DEADLINE_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the measured process exited while starting (${child.exitCode ?? child.signalCode})`);
    try {
      const res = await fetch(readyz);
      await res.body?.cancel();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(`${readyz} never answered 200`);
}

/** vmRss reads a process's resident set size from /proc, in bytes. */
function vmRss(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

async function stopChild(child: ChildProcess): Promise<StopReport> {
  if (child.exitCode !== null || child.signalCode !== null) return { ms: 0, graceful: child.signalCode === null, code: child.exitCode };
  const t0 = performance.now();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, 10_000);
  const code = await exited;
  clearTimeout(timer);
  return { ms: performance.now() - t0, graceful: !killed, code };
}
