// Facade read benchmark: the service runs as its own process (as `npm start` does, with the
// embedded source) and wrk (or autocannon) drives it over loopback. The figures and their
// references (bench/lib/facade-figures.ts) are measured in interleaved rounds:
//   - REST point read by gvr+name vs a trivial route of the same server (/livez); goal ≥ 0.9x
//   - GraphQL point read vs REST point read; goal ≥ 0.5x
//   - a list of 500 objects: server time per list vs JSON.stringify of the same 500 objects; goal ≤ 2x
// Run: npx tsx bench/facade.bench.ts   (env N objects, default 1000; SECONDS per run, default 5;
// ROUNDS, default 3). The system bench (npm run bench) measures the same against a remote source.

import { freshDataDir } from './lib/fresh-data-dir.js';
import { spawn } from 'node:child_process';
import { freePort, post, waitFor } from './lib/bench-http.js';
import { measureFacade } from './lib/facade-figures.js';
import { loadGeneratorName } from './lib/load-generator.js';
import type { LoadResult } from './lib/load-generator.js';
import { ReportRows } from './lib/report-rows.js';

const N = Number(process.env['N'] ?? 1000);
const DURATION = Number(process.env['SECONDS'] ?? 5);
const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const CONNECTIONS = 32;
const SCHEMA = 'v1alpha1.instances.bench.cachegate.io';

async function main(): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', String(port)], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...freshDataDir() }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(`${base}/readyz`);
    await seed(base);
    const name = `obj-${Math.floor(N / 2)}`;
    const f = await measureFacade({
      base,
      objectUrl: `${base}/v1/objects/bench.cachegate.io/v1alpha1/instances/${name}?cluster=root`,
      graphqlQuery: `{ object(group: "bench.cachegate.io", version: "v1alpha1", resource: "instances", name: "${name}", cluster: "root") }`,
      listUrl: `${base}/v1/schemas/${SCHEMA}/objects?cluster=root&limit=500`,
      ...(server.pid === undefined ? {} : { serverPid: server.pid }),
    }, { connections: CONNECTIONS, seconds: DURATION, rounds: ROUNDS });
    const rows = new ReportRows();
    const latency = (r: LoadResult): string => `${fmt(r.rps)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms)`;
    const restRatio = f.rest.rps / f.trivial.rps;
    const graphqlRatio = f.graphql.rps / f.rest.rps;
    const listRatio = f.listServerMs / f.stringifyMs;
    rows.add('trivial route /livez', `${fmt(f.trivial.rps)} req/s`);
    rows.add('REST point read by gvr+name', `${latency(f.rest)} = ${restRatio.toFixed(2)}x trivial`, '>= 0.9x trivial', restRatio >= 0.9);
    if (f.serverCpuUs) rows.add('server CPU per request: point read vs /livez', `${f.serverCpuUs.rest.toFixed(1)} µs vs ${f.serverCpuUs.trivial.toFixed(1)} µs = ${(f.serverCpuUs.trivial / f.serverCpuUs.rest).toFixed(2)}x`);
    rows.add('GraphQL point read', `${latency(f.graphql)} = ${graphqlRatio.toFixed(2)}x REST`, '>= 0.5x REST', graphqlRatio >= 0.5);
    rows.add('list of 500 objects', `${latency(f.list)} with ${CONNECTIONS} clients`);
    rows.add('list of 500: server time per list', `${f.listServerMs.toFixed(2)} ms = ${listRatio.toFixed(2)}x stringify`, '<= 2x stringify', listRatio <= 2);
    rows.add('JSON.stringify of the same 500 objects', `${f.stringifyMs.toFixed(2)} ms`);
    rows.add('errors (non-2xx) across runs', String(f.errors), '0', f.errors === 0);
    console.log(`facade bench, N=${N}, ${loadGeneratorName()} with ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} interleaved rounds, node ${process.version}`);
    rows.print();
  } finally {
    server.kill('SIGTERM');
  }
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

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

await main();
