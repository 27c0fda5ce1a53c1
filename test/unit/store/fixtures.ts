// Shared fixtures of the store tests.

import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { MemoryStore } from '../../../src/store/memory-store.js';
import type { MemoryStoreOptions } from '../../../src/store/memory-store.js';
import type { ObjectKey, ResourceRef, WatchEvent } from '../../../src/store/store.js';

/** FIXED_NOW is the clock of the tests. */
export const FIXED_NOW = new Date('2026-11-29T14:52:30.123Z');

/** CM is the core configmaps resource in cluster c1. */
export const CM: ResourceRef = { cluster: 'c1', group: '', resource: 'configmaps' };

/** WIDGETS is a custom resource with a group, in cluster c1. */
export const WIDGETS: ResourceRef = { cluster: 'c1', group: 'example.com', resource: 'widgets' };

/** newStore builds a store with a fixed clock. */
export function newStore(opts: MemoryStoreOptions = {}): MemoryStore {
  return new MemoryStore({ now: () => FIXED_NOW, ...opts });
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
