// Facade read benchmark: the service runs as its own process (as `npm start` does) and autocannon
// drives it over loopback. Each figure is measured in the same run as its reference:
//   - REST point read by gvr+name vs a trivial route of the same server (/livez); goal ≥ 0.8x
//   - GraphQL point read vs REST point read
//   - a list of 500 objects: server time per list (1 / throughput) vs JSON.stringify of the same
//     500 objects in-process
// Run: npx tsx bench/facade.bench.ts   (env N objects, default 1000; SECONDS per run, default 5)

import { spawn } from 'node:child_process';
import { freePort, post, waitFor } from './lib/bench-http.js';
import { loadGeneratorName, measure } from './lib/load-generator.js';

const N = Number(process.env['N'] ?? 1000);
const DURATION = Number(process.env['SECONDS'] ?? 5);
const CONNECTIONS = 32;
const SCHEMA = 'v1alpha1.instances.bench.cachegate.io';

interface Run {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

async function main(): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', String(port)], {
    env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(`${base}/readyz`);
    await seed(base);
    const objectUrl = `${base}/v1/objects/bench.cachegate.io/v1alpha1/instances/obj-${Math.floor(N / 2)}?cluster=root`;
    const query = `{ object(group: "bench.cachegate.io", version: "v1alpha1", resource: "instances", name: "obj-${Math.floor(N / 2)}", cluster: "root") }`;
    // The machine is shared, so load drifts over time: interleave the two runs whose ratio is
    // the goal, and compare the medians of ROUNDS rounds.
    const [trivial, rest] = (await interleaved([() => load(`${base}/livez`), () => load(objectUrl)])) as [Run, Run];
    const graphql = await load(`${base}/graphql`, { method: 'POST', body: JSON.stringify({ query }) });
    const list = await load(`${base}/v1/schemas/${SCHEMA}/objects?cluster=root&limit=500`);
    const stringify = await stringifyLatency(`${base}/v1/schemas/${SCHEMA}/objects?cluster=root&limit=500`);
    report([
      ['trivial route /livez', `${fmt(trivial.rps)} req/s`, '', ''],
      ['REST point read by gvr+name', `${fmt(rest.rps)} req/s (p50 ${rest.p50} ms, p99 ${rest.p99} ms)`, '>= 0.8x trivial', ratio(rest.rps, trivial.rps, 0.8)],
      ['GraphQL point read', `${fmt(graphql.rps)} req/s (p50 ${graphql.p50} ms, p99 ${graphql.p99} ms)`, 'vs REST', ratio(graphql.rps, rest.rps)],
      ['list of 500 objects', `${fmt(list.rps)} req/s (p50 ${list.p50} ms, p99 ${list.p99} ms with ${CONNECTIONS} clients)`, '', ''],
      // One event loop serves all clients, so its time per list is 1 / throughput.
      ['list of 500: server time per list', `${(1000 / list.rps).toFixed(2)} ms`, 'vs stringify', `${(1000 / list.rps / stringify).toFixed(1)}x`],
      ['JSON.stringify of the same 500 objects', `${stringify.toFixed(2)} ms`, '', ''],
      ['errors (non-2xx) across runs', String(trivial.errors + rest.errors + graphql.errors + list.errors), '0', ''],
    ]);
  } finally {
    server.kill('SIGTERM');
  }
}

const ROUNDS = Number(process.env['ROUNDS'] ?? 3);

/** interleaved runs each measurement once per round, in turn, and keeps the median round of each. */
async function interleaved(runs: ReadonlyArray<() => Promise<Run>>): Promise<Run[]> {
  const results: Run[][] = runs.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, run] of runs.entries()) results[i]?.push(await run());
  }
  return results.map((rs) => [...rs].sort((a, b) => a.rps - b.rps)[Math.floor(rs.length / 2)] as Run);
}

async function seed(base: string): Promise<void> {
  const root = `${base}/clusters/root`;
  await post(`${root}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'instances.bench.cachegate.io' },
    spec: { group: 'bench.cachegate.io', scope: 'Cluster', names: { plural: 'instances', singular: 'instance', kind: 'Instance' },
      versions: [{ name: 'v1alpha1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
  });
  for (let i = 0; i < N; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, N - i) }, (_, j) => post(`${root}/apis/bench.cachegate.io/v1alpha1/instances`, {
      metadata: { name: `obj-${i + j}`, labels: { app: 'bench', n: String(i + j) } },
      spec: { size: 'large', zone: `zone-${(i + j) % 3}`, replicas: 3, image: 'registry.example.com/team/app:1.2.3' },
    })));
  }
  await post(`${root}/apis/cache.kcp.io/v1alpha1/clustercachedresources`, {
    apiVersion: 'cache.kcp.io/v1alpha1', kind: 'ClusterCachedResource', metadata: { name: 'instances' },
    spec: { group: 'bench.cachegate.io', version: 'v1alpha1', resource: 'instances' },
  });
  await waitFor(`${base}/v1/schemas/${SCHEMA}/objects?limit=1`, async (res) => ((await res.json()) as { metadata: { remainingItemCount?: number } }).metadata.remainingItemCount === N - 1);
}

async function load(url: string, opts: { method?: 'GET' | 'POST'; body?: string } = {}): Promise<Run> {
  return measure({ url, method: opts.method, body: opts.body, contentType: 'application/json' }, CONNECTIONS, DURATION);
}

async function stringifyLatency(url: string): Promise<number> {
  const items = ((await (await fetch(url)).json()) as { items: unknown[] }).items;
  const copy = structuredClone(items);
  const rounds = 200;
  const start = performance.now();
  for (let i = 0; i < rounds; i++) JSON.stringify(copy);
  return (performance.now() - start) / rounds;
}

function ratio(value: number, reference: number, goal?: number): string {
  const r = value / reference;
  return `${r.toFixed(2)}x${goal === undefined ? '' : r >= goal ? ' yes' : ' NO'}`;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function report(rows: string[][]): void {
  console.log(`facade bench, N=${N}, ${loadGeneratorName()} with ${CONNECTIONS} connections, ${DURATION} s per run (point read and trivial: median of ${ROUNDS} interleaved rounds), node ${process.version}`);
  console.table(rows.map(([metric, value, goal, ok]) => ({ metric, value, goal, ok })));
}

await main();
