// Benchmark of the in-memory store: create and get throughput, list-by-index latency, watch fan-out
// and heap cost per object. Run: npx tsx --expose-gc bench/store.bench.ts (env N, default 100000).

import type { KubeObject } from '../src/apimachinery/object-meta.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { ObjectKey, ResourceRef, WatchEvent } from '../src/store/store.js';
import { ReportRows } from './lib/report-rows.js';

const N = Number(process.env.N ?? 100_000);
const GETS = Math.max(1_000_000, N * 10);
const INDEX_QUERIES = 5_000;
const WATCHERS = 100;
const TARGET_EVENTS_PER_S = 10_000;
const FANOUT_SECONDS = 2;
const BUCKETS = Math.max(1, Math.round(N / 100));
const REF: ResourceRef = { cluster: 'prod-eu', group: 'example.com', resource: 'widgets' };

const rows = new ReportRows();
const report = rows.add.bind(rows);

function nameOf(i: number): string {
  return `widget-${i.toString(36).padStart(4, '0')}-${((i * 2654435761) >>> 0).toString(16)}`;
}

function namespaceOf(i: number): string {
  return `team-${i % 50}`;
}

/** widget builds a realistic custom resource; JSON round-trip makes flat strings as from the network. */
function widget(i: number): KubeObject {
  const obj = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: {
      name: nameOf(i),
      namespace: namespaceOf(i),
      labels: {
        'app.kubernetes.io/name': `widget-${i % 200}`,
        'app.kubernetes.io/part-of': 'storefront',
        'app.kubernetes.io/managed-by': 'cachegate-bench',
        tier: ['frontend', 'backend', 'cache'][i % 3] ?? 'frontend',
        bucket: `b${i % BUCKETS}`,
      },
      annotations: {
        'example.com/owner': `owner-${i % 97}@example.com`,
        'example.com/revision': String((i * 7) % 1000),
        'example.com/description': `Widget ${i} serving the storefront checkout flow in region eu-west-1`,
      },
    },
    spec: {
      replicas: 1 + (i % 5),
      image: `registry.example.com/storefront/widget:1.${i % 40}.${i % 7}`,
      ports: [{ name: 'http', containerPort: 8080 + (i % 3), protocol: 'TCP' }],
      env: [
        { name: 'LOG_LEVEL', value: i % 10 === 0 ? 'debug' : 'info' },
        { name: 'REGION', value: 'eu-west-1' },
      ],
      resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: `${256 + (i % 4) * 128}Mi` } },
      paused: false,
    },
  };
  return JSON.parse(JSON.stringify(obj)) as KubeObject;
}

function gcHeap(): number {
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}

function rate(count: number, ms: number): string {
  return `${Math.round((count / ms) * 1000).toLocaleString('en-US')}/s`;
}

async function createPhase(store: MemoryStore): Promise<void> {
  const heapBefore = gcHeap();
  let inputs: KubeObject[] | undefined = Array.from({ length: N }, (_, i) => widget(i));
  const t0 = performance.now();
  for (const obj of inputs) await store.create(REF, obj);
  const ms = performance.now() - t0;
  report(`create ${N.toLocaleString('en-US')} objects`, rate(N, ms));
  // The inputs' top level and metadata were copied; dropping them leaves only what the store keeps.
  inputs = undefined;
  const perObject = (gcHeap() - heapBefore) / N;
  let jsonBytes = 0;
  for (const obj of (await store.list(REF)).items) jsonBytes += JSON.stringify(obj).length;
  const jsonSize = jsonBytes / N;
  report('avg JSON size per object', `${Math.round(jsonSize)} B`);
  report('heap per stored object (table, index, event window)', `${Math.round(perObject)} B`);
  report('heap / JSON ratio', (perObject / jsonSize).toFixed(2), '<= 2.00', perObject / jsonSize <= 2);
}

/**
 * requestKeys builds keys as a request parser would: the handful of cluster, group, resource and
 * namespace strings are shared and hot, while each name is its own string (not the stored one).
 */
function requestKeys(): ObjectKey[] {
  const namespaces = Array.from({ length: 50 }, (_, i) => namespaceOf(i));
  return Array.from({ length: N }, (_, i) => ({
    cluster: REF.cluster,
    group: REF.group,
    resource: REF.resource,
    namespace: namespaces[i % 50] ?? '',
    name: JSON.parse(JSON.stringify(nameOf(i))) as string,
  }));
}

async function timeGets(store: MemoryStore, keys: readonly ObjectKey[], order: Uint32Array): Promise<number> {
  let found = 0;
  const t0 = performance.now();
  for (let i = 0; i < order.length; i++) if (await store.get(keys[order[i] ?? 0] as ObjectKey)) found++;
  if (found !== order.length) throw new Error('get missed keys');
  return performance.now() - t0;
}

function randomOrder(count: number, range: number): Uint32Array {
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = Math.floor(Math.random() * range);
  return order;
}

async function getPhase(store: MemoryStore, keys: readonly ObjectKey[]): Promise<void> {
  await timeGets(store, keys, randomOrder(200_000, keys.length)); // JIT warm-up
  const order = randomOrder(GETS, keys.length);
  const ms = await timeGets(store, keys, order);
  report(`get (async API), ${GETS.toLocaleString('en-US')} random keys of N`, rate(GETS, ms), '>= 1,000,000/s', (GETS / ms) * 1000 >= 1e6);
  let found = 0;
  const t0 = performance.now();
  for (let i = 0; i < GETS; i++) if (store.peek(keys[order[i] ?? 0] as ObjectKey)) found++;
  const syncMs = performance.now() - t0;
  if (found !== GETS) throw new Error('peek missed keys');
  report('get (sync peek), same keys', rate(GETS, syncMs), '>= 1,000,000/s', (GETS / syncMs) * 1000 >= 1e6);
  // The same code path on 1,000 cache-resident keys: separates code cost from memory latency.
  report('get (async API), 1,000 hot keys', rate(GETS, await timeGets(store, keys, randomOrder(GETS, Math.min(1000, keys.length)))));
}

async function indexPhase(store: MemoryStore): Promise<void> {
  const samples: number[] = [];
  let matches = 0;
  for (let q = 0; q < INDEX_QUERIES; q++) {
    const value = `b${Math.floor(Math.random() * BUCKETS)}`;
    const t0 = process.hrtime.bigint();
    const result = await store.list(REF, { index: { name: 'bucket', value } });
    samples.push(Number(process.hrtime.bigint() - t0) / 1000);
    matches += result.items.length;
  }
  samples.sort((a, b) => a - b);
  const pct = (p: number): string => (samples[Math.min(samples.length - 1, Math.floor(samples.length * p))] ?? 0).toFixed(1);
  report(`list by index (~${Math.round(matches / INDEX_QUERIES)} matches) p50 / p99`, `${pct(0.5)} / ${pct(0.99)} µs`);
}

async function fanoutPhase(store: MemoryStore, keys: readonly ObjectKey[]): Promise<void> {
  const counts = new Array<number>(WATCHERS).fill(0);
  const watches = [];
  for (let w = 0; w < WATCHERS; w++) {
    const listener = (e: WatchEvent): void => {
      if (e.type === 'MODIFIED') counts[w] = (counts[w] ?? 0) + 1;
    };
    watches.push(await store.watch(REF, { resourceVersion: await store.resourceVersion() }, listener));
  }
  let updates = 0;
  let writeMs = 0;
  const t0 = performance.now();
  const end = t0 + FANOUT_SECONDS * 1000;
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - t0) / 1000) * TARGET_EVENTS_PER_S);
    const w0 = performance.now();
    while (updates < due) {
      const key = keys[updates % keys.length] as ObjectKey;
      const stored = await store.get(key);
      const spec = stored.spec as Record<string, unknown>;
      await store.update(key, { ...stored, metadata: { ...stored.metadata, resourceVersion: '' }, spec: { ...spec, replicas: updates } });
      updates++;
    }
    writeMs += performance.now() - w0;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const elapsed = performance.now() - t0;
  for (const watch of watches) watch.stop();
  const minDelivered = Math.min(...counts);
  const perWatcher = (minDelivered / elapsed) * 1000;
  const keptUp = minDelivered === updates && perWatcher >= TARGET_EVENTS_PER_S * 0.95;
  report(`watch fan-out: ${WATCHERS} watchers, updates issued`, rate(updates, elapsed), `${TARGET_EVENTS_PER_S.toLocaleString('en-US')}/s`);
  report('watch fan-out: delivered per watcher (min)', rate(minDelivered, elapsed), 'keeps up', keptUp);
  report('watch fan-out: CPU busy writing+delivering', `${((writeMs / elapsed) * 100).toFixed(1)}% of wall time`);
}

async function main(): Promise<void> {
  if (globalThis.gc === undefined) console.warn('run with --expose-gc for memory figures');
  const store = new MemoryStore();
  store.addIndex(REF.group, REF.resource, 'bucket', (o) => (o.metadata.labels?.bucket ? [o.metadata.labels.bucket] : []));
  await createPhase(store);
  const keys = requestKeys();
  await getPhase(store, keys);
  await indexPhase(store);
  await fanoutPhase(store, keys);
  console.log(`store bench, N=${N.toLocaleString('en-US')}, node ${process.version}`);
  rows.print();
}

await main();
