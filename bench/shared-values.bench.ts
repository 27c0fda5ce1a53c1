// Benchmark of SharedValues (src/apimachinery/shared-values.ts): what sharing repeated strings and
// records costs per decoded object, and what it saves in heap. Two kinds of value, each decoded with
// and without a SharedValues table: a copy, the CachedObject of a bench object as a durable backend
// stores it, decoded as a restart decodes it (decodeStoredValue); and an original, the bench object
// as a source serves it, parsed and frozen as a source list or watch event is. Run: npx tsx --expose-gc bench/shared-values.bench.ts (env N,
// default 100000).

import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../src/apimachinery/object-meta.js';
import { deepFreeze } from '../src/apimachinery/object-meta.js';
import { SharedValues } from '../src/apimachinery/shared-values.js';
import { wrapCachedObject } from '../src/cachedobjects/wrap-cached-object.js';
import { decodeStoredValue, encodeStoredValue } from '../src/store/stored-value.js';
import { BENCH_GVR, benchObject, benchObjectName } from './lib/bench-objects.js';
import type { ObjectShape } from './lib/bench-objects.js';
import { ReportRows } from './lib/report-rows.js';
import { interleaved } from './lib/stats.js';

const N = Number(process.env.N ?? 100_000);
const ROUNDS = 3;
const CREATED = '2026-12-03T23:21:25Z';

/** Value picks what is decoded: a copy as a store holds it, or an original as a source sends it. */
type Value = 'copy' | 'original';

/** storedValues are N values of one kind, with the uids and timestamps a store or a source gives them. */
function storedValues(shape: ObjectShape, value: Value): string[] {
  const values: string[] = [];
  for (let i = 0; i < N; i++) {
    const parsed = benchObject(shape, i, 'root');
    const original: KubeObject = { ...parsed, metadata: { ...parsed.metadata, uid: randomUUID(), resourceVersion: String(i + 10), creationTimestamp: CREATED } };
    if (value === 'original') {
      values.push(JSON.stringify(original));
      continue;
    }
    const co = wrapCachedObject({ original, gvr: BENCH_GVR, shard: 'remote', cluster: 'root', identityHash: '', name: `v1alpha1.widgets.bench.cachegate.io.${benchObjectName(i)}` });
    values.push(encodeStoredValue({ ...co, metadata: { ...co.metadata, uid: randomUUID(), creationTimestamp: CREATED } }));
  }
  return values;
}

function heapUsed(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}

/** decodeAll decodes every value once; returns µs per value and heap bytes per kept copy. */
function decodeAll(values: readonly string[], value: Value, sharing: boolean): { readonly micros: number; readonly bytes: number } {
  const shared = sharing ? new SharedValues() : undefined;
  const before = heapUsed();
  const started = performance.now();
  const kept = value === 'copy' ? values.map((text, i) => decodeStoredValue(text, i + 1, shared)) : values.map((text) => parsedOriginal(text, shared));
  const micros = ((performance.now() - started) / values.length) * 1000;
  const bytes = (heapUsed() - before) / kept.length;
  return { micros, bytes };
}

/** parsedOriginal parses and freezes an original as a source client does (SharedValues, or a plain deep freeze). */
function parsedOriginal(text: string, shared: SharedValues | undefined): unknown {
  const parsed: unknown = JSON.parse(text);
  return shared === undefined ? deepFreeze(parsed) : shared.freeze(parsed);
}

async function main(): Promise<void> {
  if (globalThis.gc === undefined) console.warn('run with --expose-gc for the heap figures');
  const rows = new ReportRows();
  for (const value of ['copy', 'original'] as const) {
    for (const shape of ['widget', 'small'] as const) {
      const values = storedValues(shape, value);
      const json = values.reduce((sum, text) => sum + text.length, 0) / values.length;
      // Interleaved rounds, median round by time: the two ways see the same machine state.
      const [plain, shared] = await interleaved([async () => decodeAll(values, value, false), async () => decodeAll(values, value, true)], ROUNDS, (r) => r.micros);
      if (plain === undefined || shared === undefined) throw new Error('no rounds');
      rows.add(`${shape} ${value}: decode, plain`, `${plain.micros.toFixed(2)} µs`);
      rows.add(`${shape} ${value}: decode, shared`, `${shared.micros.toFixed(2)} µs (${(shared.micros / plain.micros).toFixed(2)}x)`);
      rows.add(`${shape} ${value}: heap per decoded value, plain`, `${plain.bytes.toFixed(0)} B (${(plain.bytes / json).toFixed(2)}x its ${json.toFixed(0)}-byte JSON)`);
      rows.add(`${shape} ${value}: heap per decoded value, shared`, `${shared.bytes.toFixed(0)} B (${(shared.bytes / json).toFixed(2)}x)`);
    }
  }
  console.log(`shared-values bench, N=${N.toLocaleString('en-US')}, node ${process.version}`);
  rows.print();
}

await main();
