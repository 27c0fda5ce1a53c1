// Shared fixtures of the store tests.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { openLocalBackend } from '../../../src/storage/local/local-backend.js';
import { openDurableStore } from '../../../src/store/durable-store.js';
import { MemoryStore } from '../../../src/store/memory-store.js';
import type { MemoryStoreOptions } from '../../../src/store/memory-store.js';
import type { ObjectKey, ResourceRef, WatchEvent } from '../../../src/store/store.js';

/** FIXED_NOW is the clock of the tests. */
export const FIXED_NOW = new Date('2026-11-29T14:52:30.123Z');

/** CM is the core configmaps resource in cluster c1. */
export const CM: ResourceRef = { cluster: 'c1', group: '', resource: 'configmaps' };

/** WIDGETS is a custom resource with a group, in cluster c1. */
export const WIDGETS: ResourceRef = { cluster: 'c1', group: 'example.com', resource: 'widgets' };

/**
 * STORE_BACKEND picks what keeps the stores of these tests: `memory` (default), or `local`, where
 * every store is a watch cache over its own fresh local database (the `store-on-local` test
 * project runs the same files that way). A fresh database numbers its revisions 1, 2, 3... as the
 * memory store numbers its versions, so the same expectations hold.
 */
const STORE_BACKEND = process.env['STORE_BACKEND'] ?? 'memory';
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

/** newStore builds a store with a fixed clock. */
export async function newStore(opts: MemoryStoreOptions = {}): Promise<MemoryStore> {
  if (STORE_BACKEND === 'memory') return new MemoryStore({ now: () => FIXED_NOW, ...opts });
  if (STORE_BACKEND !== 'local') throw new Error(`STORE_BACKEND=${STORE_BACKEND}: use memory or local`);
  const dataDir = mkdtempSync(join(tmpdir(), 'cachegate-store-unit-'));
  const backend = await openLocalBackend({ dataDir, fsync: false });
  const durable = await openDurableStore({ now: () => FIXED_NOW, ...opts, backend, space: 'unit' });
  closers.push(async () => {
    await durable.stop();
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return durable.store;
}

/** cm builds a configmap-like object. */
export function cm(name: string, namespace = 'default', extra: Partial<KubeObject> = {}, labels?: Record<string, string>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    data: { key: name },
    ...extra,
    metadata: { name, namespace, ...(labels ? { labels } : {}), ...extra.metadata },
  };
}

/** keyOf gives the storage key of an object of ref. */
export function keyOf(ref: ResourceRef, name: string, namespace = 'default'): ObjectKey {
  return { ...ref, namespace, name };
}

/** recorder returns a listener and the events it received, as [type, name, rv] triples. */
export function recorder(): { events: WatchEvent[]; listener: (e: WatchEvent) => void; summary: () => string[] } {
  const events: WatchEvent[] = [];
  return {
    events,
    listener: (e) => events.push(e),
    summary: () => events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion].filter(Boolean).join(' ')),
  };
}

/** names gives the names of objects. */
export function names(items: readonly KubeObject[]): string[] {
  return items.map((o) => o.metadata.name ?? '');
}
