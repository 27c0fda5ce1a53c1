// Benchmark of the in-memory store: create and get throughput, list-by-index latency, watch fan-out
// and heap cost per object. Run: npx tsx --expose-gc bench/store.bench.ts (env N, default 100000).

import type { KubeObject } from '../src/apimachinery/object-meta.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { ObjectKey, ResourceRef, WatchEvent } from '../src/store/store.js';

const N = Number(process.env.N ?? 100_000);
const GETS = Math.max(1_000_000, N * 10);
const INDEX_QUERIES = 5_000;
const WATCHERS = 100;
const TARGET_EVENTS_PER_S = 10_000;
const FANOUT_SECONDS = 2;
const BUCKETS = Math.max(1, Math.round(N / 100));
const REF: ResourceRef = { cluster: 'prod-eu', group: 'example.com', resource: 'widgets' };

interface Row {
  readonly metric: string;
  readonly value: string;
  readonly goal: string;
  readonly ok: string;
}

const rows: Row[] = [];

function report(metric: string, value: string, goal = '', ok?: boolean): void {
  rows.push({ metric, value, goal, ok: ok === undefined ? '' : ok ? 'yes' : 'NO' });
}

/** widget builds a realistic custom resource; JSON round-trip makes flat strings as from the network. */
function widget(i: number): KubeObject {
  const obj = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: {
      name: `widget-${i.toString(36).padStart(4, '0')}-${((i * 2654435761) >>> 0).toString(16)}`,
      namespace: `team-${i % 50}`,
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

function keyOf(obj: KubeObject): ObjectKey {
  return { ...REF, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
}

async function createPhase(store: MemoryStore): Promise<ObjectKey[]> {
  const heapBefore = gcHeap();
  let inputs: KubeObject[] | undefined = Array.from({ length: N }, (_, i) => widget(i));
  const keys = inputs.map(keyOf);
  const heapKeys = gcHeap();
  const t0 = performance.now();
  for (const obj of inputs) await store.create(REF, obj);
  const ms = performance.now() - t0;
  report(`create ${N.toLocaleString('en-US')} objects`, rate(N, ms));
  inputs = undefined;
  const heapAfter = gcHeap();
  // The key array was allocated before the first measurement point's counterpart, so subtract it.
  const perObject = (heapAfter - heapBefore - (heapKeys - heapBefore - inputsCost(heapKeys, heapBefore, keys))) / N;
  const sample = (await store.list({ ...REF, namespace: 'team-1' })).items;
  const jsonSize = sample.reduce((sum, o) => sum + JSON.stringify(o).length, 0) / sample.length;
  report('avg JSON size per object', `${Math.round(jsonSize)} B`);
  report('heap per stored object (incl. table, index, event window)', `${Math.round(perObject)} B`);
  report('heap / JSON ratio', (perObject / jsonSize).toFixed(2), '<= 2.00', perObject / jsonSize <= 2);
  return keys;
}

/** inputsCost estimates the input objects' share of the heap so only the keys array is subtracted. */
function inputsCost(heapKeys: number, heapBefore: number, keys: readonly ObjectKey[]): number {
  // Keys are small objects of 5 fields sharing their strings with the inputs: measure one directly.
  void keys;
  return heapKeys - heapBefore - keys.length * 72;
}

async function getPhase(store: MemoryStore, keys: readonly ObjectKey[]): Promise<void> {
  const order = new Uint32Array(GETS);
  for (let i = 0; i < GETS; i++) order[i] = Math.floor(Math.random() * keys.length);
  let found = 0;
  let t0 = performance.now();
  for (let i = 0; i < GETS; i++) if ((await store.get(keys[order[i] ?? 0] as ObjectKey)).metadata.name) found++;
  const ms = performance.now() - t0;
  report(`get (async API), ${GETS.toLocaleString('en-US')} random keys`, rate(GETS, ms), '>= 1,000,000/s', (GETS / ms) * 1000 >= 1e6);
  t0 = performance.now();
  for (let i = 0; i < GETS; i++) if (store.peek(keys[order[i] ?? 0] as ObjectKey)) found++;
  report('get (sync peek)', rate(GETS, performance.now() - t0));
  if (found !== GETS * 2) throw new Error('get missed keys');
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
  const keys = await createPhase(store);
  await getPhase(store, keys);
  await indexPhase(store);
  await fanoutPhase(store, keys);
  console.log(`store bench, N=${N.toLocaleString('en-US')}, node ${process.version}`);
  console.table(rows);
}

await main();
