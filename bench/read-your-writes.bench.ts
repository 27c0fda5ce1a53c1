// Read-your-writes across replicas: three server processes, a source S (embedded, watch
// BOOKMARKs at the default 60 s) and two replicas A and B replicating it. S's logical cluster
// `root` has two ClusterCachedResources: `instances`, which the bench writes, and `widgets`, which
// nobody writes (a quiet controller). Each pair writes an instance through A and at once reads it
// on B with the write's token as minResourceVersion; the read's latency holds B's wait for
// replication (goal p99 ≤ 100 ms, every read 200 and seeing its write). For reference: plain
// reads on B, and a few reads with the older `<shard>/<cluster>/<rv>` form, which waits for the
// quiet controller too.
// Run: npm run bench:read-your-writes   (env PAIRS, default 100; OLD_PAIRS, default 3)

import { freshDataDir } from './lib/fresh-data-dir.js';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, post, waitFor } from './lib/bench-http.js';
import { ReportRows } from './lib/report-rows.js';
import { percentile } from './lib/stats.js';

const PAIRS = Number(process.env['PAIRS'] ?? 100);
const OLD_PAIRS = Number(process.env['OLD_PAIRS'] ?? 3);
const GROUP = 'bench.cachegate.io';
const INSTANCES = `/v1/objects/${GROUP}/v1alpha1/instances`;
const WAIT_BOUND_MS = 5000;

interface Server {
  readonly base: string;
  readonly process: ChildProcess;
}

interface Pair {
  readonly status: number;
  readonly readMs: number;
  readonly fresh: boolean;
}

async function main(): Promise<void> {
  const servers: Server[] = [];
  try {
    const source = await startServer({}, servers);
    await seed(source.base);
    const kubeconfig = kubeconfigFor(source.base);
    const replica = { embedded: { enabled: false }, sources: [{ name: 's', kind: 'kcp', kubeconfig }], limits: { minResourceVersionWaitMs: WAIT_BOUND_MS } };
    const a = await startServer(replica, servers);
    const b = await startServer(replica, servers);
    for (const server of [a, b]) await waitFor(`${server.base}/v1/schemas/v1alpha1.widgets.${GROUP}/objects?cluster=root&name=seed`, hasOne);
    await waitFor(`${b.base}${INSTANCES}/seed?cluster=root`);
    const pairs: Pair[] = [];
    for (let i = 0; i < PAIRS; i++) pairs.push(await writeThenRead(a.base, b.base, i, (token) => token));
    const plain = await plainReads(b.base, PAIRS);
    const old: Pair[] = [];
    for (let i = 0; i < OLD_PAIRS; i++) old.push(await writeThenRead(a.base, b.base, PAIRS + i, threePartForm));
    report(pairs, plain, old);
  } finally {
    for (const server of servers) server.process.kill('SIGTERM');
  }
}

/** writeThenRead writes an instance through A (create, then patches) and reads it on B with the token as toToken makes it. */
async function writeThenRead(a: string, b: string, round: number, toToken: (token: string) => string): Promise<Pair> {
  const name = `pair-${round % 50}`;
  const write = round < 50
    ? fetch(`${a}${INSTANCES}?cluster=root&shard=s`, json('POST', { metadata: { name }, spec: { round } }))
    : fetch(`${a}${INSTANCES}/${name}?cluster=root&shard=s`, json('PATCH', { spec: { round } }, 'application/merge-patch+json'));
  const written = await write;
  const rv = ((await written.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const token = toToken(written.headers.get('x-cachegate-resource-version') ?? '');
  const t0 = performance.now();
  const read = await fetch(`${b}${INSTANCES}/${name}?cluster=root&shard=s&minResourceVersion=${encodeURIComponent(token)}`);
  const body = (await read.json()) as { metadata?: { resourceVersion?: string }; spec?: { round?: number } };
  const readMs = performance.now() - t0;
  return { status: read.status, readMs, fresh: body.metadata?.resourceVersion === rv && body.spec?.round === round };
}

/** plainReads reads on B without a token, the reference for what a read costs without a wait. */
async function plainReads(b: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await (await fetch(`${b}${INSTANCES}/pair-${i % 50}?cluster=root&shard=s`)).arrayBuffer();
    times.push(performance.now() - t0);
  }
  return times;
}

function report(pairs: readonly Pair[], plain: readonly number[], old: readonly Pair[]): void {
  const reads = sorted(pairs.map((p) => p.readMs));
  const ok = pairs.filter((p) => p.status === 200).length;
  const fresh = pairs.filter((p) => p.fresh).length;
  const p99 = percentile(reads, 0.99);
  const rows = new ReportRows();
  rows.add(`read on B with the write's token, ${pairs.length} pairs: p50 / p99 / max (includes the wait)`,
    `${ms(percentile(reads, 0.5))} / ${ms(p99)} / ${ms(reads.at(-1) ?? NaN)}`, 'p99 <= 100 ms', p99 <= 100);
  rows.add('answers 200', `${ok} of ${pairs.length}`, 'all', ok === pairs.length);
  rows.add('reads that saw their write', `${fresh} of ${pairs.length}`, 'all', fresh === pairs.length);
  const plainSorted = sorted(plain);
  rows.add('plain read on B (no token): p50 / p99', `${ms(percentile(plainSorted, 0.5))} / ${ms(percentile(plainSorted, 0.99))}`);
  if (old.length > 0) {
    const timeouts = old.filter((p) => p.status === 504).length;
    rows.add(`older token <shard>/<cluster>/<rv>, ${old.length} pairs: 504 answers, p50 read`, `${timeouts} of ${old.length}, ${ms(percentile(sorted(old.map((p) => p.readMs)), 0.5))}`);
  }
  console.log(`read-your-writes bench: write through replica A, read on replica B with the token; ${pairs.length} pairs in sequence; a quiet second CCR; wait bound ${WAIT_BOUND_MS} ms; node ${process.version}`);
  rows.print();
}

async function startServer(fields: Record<string, unknown>, servers: Server[]): Promise<Server> {
  const port = await freePort();
  const config = join(mkdtempSync(join(tmpdir(), 'ryw-bench-')), 'config.json');
  writeFileSync(config, JSON.stringify({ port, logLevel: 'warn', cache: { enabled: true, gvks: [`${GROUP}/v1alpha1/Instance`], ttl: '2m' }, ...fields }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--config', config], { env: { ...process.env, ...freshDataDir() }, stdio: ['ignore', 'ignore', 'inherit'] });
  const server = { base: `http://127.0.0.1:${port}`, process: child };
  servers.push(server);
  await waitFor(`${server.base}/readyz`);
  return server;
}

async function seed(base: string): Promise<void> {
  const root = `${base}/clusters/root`;
  for (const [plural, kind] of [['instances', 'Instance'], ['widgets', 'Widget']]) {
    await post(`${root}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
      metadata: { name: `${plural}.${GROUP}` },
      spec: { group: GROUP, scope: 'Cluster', names: { plural, kind }, versions: [{ name: 'v1alpha1', served: true, storage: true }] },
    });
    await post(`${root}/apis/${GROUP}/v1alpha1/${plural}`, { metadata: { name: 'seed' } });
    await post(`${root}/apis/cache.kcp.io/v1alpha1/clustercachedresources`, { metadata: { name: plural }, spec: { group: GROUP, version: 'v1alpha1', resource: plural } });
  }
}

/** kubeconfigFor writes a kubeconfig reaching server anonymously (the replicas' `kcp` source). */
function kubeconfigFor(server: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ryw-bench-kubeconfig-')), 'config');
  writeFileSync(path, `apiVersion: v1\nkind: Config\nclusters: [{name: s, cluster: {server: "${server}"}}]\nusers: [{name: anonymous, user: {}}]\n`
    + 'contexts: [{name: s, context: {cluster: s, user: anonymous}}]\ncurrent-context: s\n');
  return path;
}

/** threePartForm turns `<shard>/<cluster>/<group>/<resource>/<rv>` into the older `<shard>/<cluster>/<rv>`. */
function threePartForm(token: string): string {
  const [shard, cluster, , , rv] = token.split('/');
  return `${shard}/${cluster}/${rv}`;
}

async function hasOne(res: Response): Promise<boolean> {
  return res.status === 200 && ((await res.json()) as { items: unknown[] }).items.length === 1;
}

function json(method: string, body: unknown, type = 'application/json'): RequestInit {
  return { method, headers: { 'content-type': type }, body: JSON.stringify(body) };
}

function sorted(values: readonly number[]): number[] {
  return [...values].sort((x, y) => x - y);
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

await main();
