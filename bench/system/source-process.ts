// The remote source of the system bench: a cachegate whose embedded kube-compatible API serves
// the bench objects, in its own process so that the measured cachegate's memory and CPU are its
// own. It only serves (fastify.listen, no app.start()): a real source does not replicate, and its
// own controllers would otherwise reconcile the bench's CCR too and compete for the two cores.
// Objects are created and updated in-process through the store (as the HTTP API would store
// them), because seeding a million objects over HTTP takes minutes.
// Run by the orchestrator with fork() and an IPC channel (source-protocol.ts).

import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { keepReadPathCode } from '../../src/app/keep-read-path-code.js';
import { DEFAULT_CONFIG } from '../../src/config/load-config.js';
import { ensureNamespace } from '../../src/apiserver/embedded/cluster-hooks.js';
import type { ObjectKey, ResourceRef } from '../../src/store/store.js';
import { testConfig } from '../../test/helpers/test-app.js';
import { post } from '../lib/bench-http.js';
import { BENCH_GVR, benchObject, benchObjectName } from '../lib/bench-objects.js';
import type { ObjectShape } from '../lib/bench-objects.js';
import { SOURCE_CLUSTER, machineClockMs } from './source-protocol.js';
import type { SourceReply, SourceRequest } from './source-protocol.js';

const REF: ResourceRef = { cluster: SOURCE_CLUSTER, group: BENCH_GVR.group, resource: BENCH_GVR.resource };

async function main(): Promise<void> {
  // V8's code flushing as the entry point sets it.
  keepReadPathCode();
  // A large event window would only cost the source memory; the measured process lists, then watches from there.
  // Load shedding as a deployed cachegate has it (test apps turn it off unless asked).
  const limits = { maxEventLoopDelayMs: DEFAULT_CONFIG.limits.maxEventLoopDelayMs };
  const app = await buildApp(testConfig({ store: { eventWindow: 10_000 }, limits }), { logger: pino({ level: 'silent' }) });
  await ensureNamespace(app.stores.source, SOURCE_CLUSTER, 'default');
  const url = await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  await post(`${url}/clusters/${SOURCE_CLUSTER}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${BENCH_GVR.resource}.${BENCH_GVR.group}` },
    spec: {
      group: BENCH_GVR.group, scope: 'Cluster', names: { plural: BENCH_GVR.resource, kind: BENCH_GVR.kind },
      versions: [{ name: BENCH_GVR.version, served: true, storage: true }],
    },
  });
  const reply = (message: SourceReply): void => void process.send?.(message);
  process.on('message', (request: SourceRequest) => {
    const work = request.type === 'seed' ? seed(app.stores.source, request.n, request.shape) : writes(app.stores.source, request);
    work.then(reply, (err: unknown) => reply({ type: 'failed', error: String(err) }));
  });
  process.on('disconnect', () => process.exit(0));
  reply({ type: 'listening', url });
}

/** writeCount numbers writes across runs, so every write changes its object (a no-op update gets no new resourceVersion). */
let writeCount = 0;

type Store = Awaited<ReturnType<typeof buildApp>>['stores']['source'];

async function seed(store: Store, n: number, shape: ObjectShape): Promise<SourceReply> {
  const t0 = performance.now();
  let jsonBytes = 0;
  for (let i = 0; i < n; i++) {
    const stored = await store.create(REF, benchObject(shape, i, SOURCE_CLUSTER));
    // Sampled: stringifying a million objects would double the seeding time.
    if (i % 100 === 0) jsonBytes += Buffer.byteLength(JSON.stringify(stored));
  }
  return { type: 'seeded', ms: performance.now() - t0, avgJsonBytes: jsonBytes / Math.ceil(n / 100) };
}

/** writes updates objects at a steady rate (spread over all n) and stamps each with the machine clock. */
async function writes(store: Store, req: { n: number; rate: number; seconds: number }): Promise<SourceReply> {
  const stamps: Array<readonly [string, number]> = [];
  const t0 = performance.now();
  const end = t0 + req.seconds * 1000;
  let done = 0;
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - t0) / 1000) * req.rate);
    while (done < due) {
      const key: ObjectKey = { ...REF, namespace: '', name: benchObjectName((done * 7919) % req.n) };
      const stored = await store.get(key);
      const spec = stored.spec as Record<string, unknown>;
      const at = machineClockMs();
      const updated = await store.update(key, { ...stored, metadata: { ...stored.metadata, resourceVersion: '' }, spec: { ...spec, counter: ++writeCount } });
      stamps.push([updated.metadata.resourceVersion ?? '', at]);
      done++;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return { type: 'written', writes: stamps, elapsedMs: performance.now() - t0 };
}

if (process.send) await main();
