// The fuzz test's target: a real cachegate on loopback whose error-level log lines are kept, so a
// 5xx can be printed with the server's own account of it, seeded with a CRD, instances, a
// ConfigMap and a ClusterCachedResource that replicates the instances into the cache.

import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pino from 'pino';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/app.js';
import { crd, eventually, request } from '../helpers/kube-http.js';
import { CCRS, ccr } from '../helpers/replication.js';
import { testConfig } from '../helpers/test-app.js';
import { SEED } from './fuzz-values.js';
import { FUZZ_CLIENT_ADDRESS, describeRequest, send } from './raw-client.js';
import type { FuzzRequest, FuzzResponse } from './raw-client.js';

/** FuzzApp is a started app, its port and the error lines it logged. */
export interface FuzzApp {
  readonly app: App;
  readonly url: string;
  readonly port: number;
  readonly errorLogs: string[];
  /** openFrom counts the server's connections still open from these fuzz client ports (see FUZZ_CLIENT_ADDRESS). */
  openFrom(clientPorts: ReadonlySet<number>): number;
  stop(): Promise<void>;
}

/** startFuzzApp starts cachegate with a logger that keeps error lines (and drops the rest). */
export async function startFuzzApp(fields: Record<string, unknown> = {}): Promise<FuzzApp> {
  const errorLogs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (errorLogs.length < 200) errorLogs.push(chunk.toString('utf8').slice(0, 3000));
      done();
    },
  });
  const app = await buildApp(testConfig(fields), { logger: pino({ level: 'error' }, sink) });
  const url = await app.start();
  const open = new Set<Socket>();
  app.fastify.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const openFrom = (clientPorts: ReadonlySet<number>): number =>
    [...open].filter((s) => s.remoteAddress?.endsWith(FUZZ_CLIENT_ADDRESS) === true && clientPorts.has(s.remotePort ?? -1)).length;
  return { app, url, port: Number(new URL(url).port), errorLogs, openFrom, stop: () => app.stop() };
}

/** seed creates the objects the generated requests aim at, with the given headers (auth). */
export async function seed(target: FuzzApp, headers: Record<string, string> = {}): Promise<void> {
  const base = `${target.url}/clusters/${SEED.cluster}`;
  const post = async (path: string, body: unknown): Promise<void> => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`seeding ${path}: ${res.status} ${await res.text()}`);
  };
  await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd({ group: SEED.group, plural: SEED.resource, kind: SEED.kind }));
  await post(CCRS, ccr(SEED.resource, { group: SEED.group, version: SEED.version, resource: SEED.resource }));
  for (const name of SEED.names) {
    await post(`/apis/${SEED.group}/${SEED.version}/${SEED.resource}`, { metadata: { name, labels: { app: 'web' } }, spec: { n: name } });
  }
  await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'settings' }, data: { a: 'b' } });
  await eventually(async () => {
    const list = await target.app.read.listCachedObjects({ schema: SEED.schema }, {});
    if (list.items.length !== SEED.names.length) throw new Error(`${list.items.length} copies so far`);
  });
}

/** Offender is a request answered with a 5xx, or not answered at all. */
export interface Offender {
  readonly request: string;
  readonly response: FuzzResponse;
}

/** FireResult is the offenders of a batch, how many answers each status got, and the client ports it used. */
export interface FireResult {
  readonly offenders: Offender[];
  readonly statuses: Record<string, number>;
  readonly clientPorts: ReadonlySet<number>;
}

/** fire sends the requests with bounded concurrency; offenders are the ones answered ≥ 500 or never. */
export async function fire(port: number, requests: readonly FuzzRequest[], concurrency = 12): Promise<FireResult> {
  const offenders: Offender[] = [];
  const statuses: Record<string, number> = {};
  const clientPorts = new Set<number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < requests.length; i = next++) {
      const req = requests[i];
      if (req === undefined) continue;
      const response = await send(port, req);
      if (response.localPort !== undefined) clientPorts.add(response.localPort);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if ((response.status >= 500 && !isContractTimeout(req, response)) || response.hung) offenders.push({ request: describeRequest(req), response });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { offenders, statuses, clientPorts };
}

// Two 504s are the contract, not faults, both with Retry-After: a read whose minResourceVersion
// the cache has not reached within the bound (openapi.yaml documents it), and a kube-API list or
// watch from a resourceVersion the store has not reached (kube-apiserver's ResourceVersionTooLarge).
function isContractTimeout(req: FuzzRequest, response: FuzzResponse): boolean {
  if (response.status !== 504 || !/\r\nretry-after: \d+/i.test(response.head)) return false;
  return /[?&]minResourceVersion=/.test(req.path) || (/[?&]resourceVersion=/.test(req.path) && response.body.includes('"ResourceVersionTooLarge"'));
}

/** report prints offenders and the server's error lines as one readable failure message. */
export function report(offenders: readonly Offender[], errorLogs: readonly string[], seedValue: number): string {
  const lines = offenders.slice(0, 25).map((o) => `${o.response.hung ? 'HUNG' : o.response.status} ← ${o.request}\n    ${JSON.stringify(o.response.body.slice(0, 400))}`);
  return [`fuzz seed ${seedValue} (rerun with FUZZ_SEED=${seedValue}): ${offenders.length} offenders`, ...lines, 'server error log:', ...errorLogs.slice(0, 10)].join('\n');
}

/** collectGarbage runs a full GC; the flag is set at run time so the test needs no special node options. */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
}

/**
 * settledHeapBytes is heapUsed after a full GC, once the server has closed every connection of a
 * batch of requests, so no request of it still being handled holds memory.
 */
export async function settledHeapBytes(target: FuzzApp, batch: FireResult): Promise<number> {
  await eventually(() => expect(target.openFrom(batch.clientPorts)).toBe(0));
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** livez tells whether the app still answers its liveness probe. */
export async function livez(url: string): Promise<number> {
  return (await request('GET', `${url}/livez`)).status;
}
