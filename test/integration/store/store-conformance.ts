// The behaviour every store must show whatever keeps its state: in memory, over the local
// database, over etcd. Versions are compared, never predicted, since a durable backend numbers
// them with its own revision.

import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import type { MemoryStore } from '../../../src/store/memory-store.js';
import type { ObjectKey, ResourceRef, WatchEvent } from '../../../src/store/store.js';
import { eventually } from '../../helpers/kube-http.js';

/** StoreUnderTest is a store and how to end it; reopen (durable stores) opens its state again. */
export interface StoreUnderTest {
  readonly store: MemoryStore;
  close(): Promise<void>;
  reopen?: () => Promise<StoreUnderTest>;
}

const CM: ResourceRef = { cluster: 'c1', group: '', resource: 'configmaps' };
const WIDGETS: ResourceRef = { cluster: 'c1', group: 'example.com', resource: 'widgets' };

function key(ref: ResourceRef, name: string, namespace = 'default'): ObjectKey {
  return { ...ref, namespace, name };
}

function cm(name: string, data: Record<string, string> = { v: name }, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', ...extra }, data };
}

function rv(obj: KubeObject): number {
  return Number(obj.metadata.resourceVersion);
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** describeStoreConformance runs the shared cases against stores made by open. */
export function describeStoreConformance(name: string, open: () => Promise<StoreUnderTest>): void {
  const withStore = async (run: (s: StoreUnderTest) => Promise<void>): Promise<void> => {
    const s = await open();
    try {
      await run(s);
    } finally {
      await s.close();
    }
  };

  describe(`store conformance: ${name}`, () => {
    it('case 1: create fills uid, version and timestamp; get answers the same object; versions increase', async () => {
      await withStore(async ({ store }) => {
        const a = await store.create(CM, cm('a'));
        const b = await store.create(CM, cm('b'));
        expect(a.metadata).toMatchObject({ name: 'a', namespace: 'default', generation: 1 });
        expect(a.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
        expect(rv(b)).toBeGreaterThan(rv(a));
        expect(await store.get(key(CM, 'a'))).toEqual(a);
        expect(Number(await store.resourceVersion())).toBeGreaterThanOrEqual(rv(b));
      });
    });

    it('case 2: a taken name is AlreadyExists; generateName finds free names', async () => {
      await withStore(async ({ store }) => {
        await store.create(CM, cm('a'));
        expect((await failure(store.create(CM, cm('a')))).code).toBe('AlreadyExists');
        const made = await Promise.all(Array.from({ length: 5 }, () => store.create(CM, { metadata: { generateName: 'gen-', namespace: 'default' } })));
        expect(new Set(made.map((o) => o.metadata.name)).size).toBe(5);
      });
    });

    it('case 3: an update with a stale version is a Conflict; without one it applies; one that changes nothing keeps the version', async () => {
      await withStore(async ({ store }) => {
        const a = await store.create(CM, cm('a'));
        const a2 = await store.update(key(CM, 'a'), cm('a', { v: '2' }, { resourceVersion: a.metadata.resourceVersion }));
        expect(rv(a2)).toBeGreaterThan(rv(a));
        expect((await failure(store.update(key(CM, 'a'), cm('a', { v: '3' }, { resourceVersion: a.metadata.resourceVersion })))).code).toBe('Conflict');
        const same = await store.update(key(CM, 'a'), cm('a', { v: '2' }));
        expect(same.metadata.resourceVersion).toBe(a2.metadata.resourceVersion);
        expect((await failure(store.update(key(CM, 'nope'), cm('nope')))).code).toBe('NotFound');
      });
    });

    it('case 4: concurrent updates of one object without versions all apply, one after the other', async () => {
      await withStore(async ({ store }) => {
        await store.create(CM, cm('counter', {}));
        const writers = 12;
        const results = await Promise.all(Array.from({ length: writers }, async (_, i) => {
          const current = await store.get(key(CM, 'counter'));
          return store.update(key(CM, 'counter'), { ...current, metadata: { ...current.metadata, resourceVersion: '' }, data: { ...(current['data'] as object), [`w${i}`]: 'x' } });
        }));
        expect(new Set(results.map(rv)).size).toBe(writers);
        const final = await store.get(key(CM, 'counter'));
        expect(rv(final)).toBe(Math.max(...results.map(rv)));
      });
    });

    it('case 5: delete with finalizers marks the object; removing the last finalizer deletes it; watchers see both', async () => {
      await withStore(async ({ store }) => {
        const events: WatchEvent[] = [];
        await store.watch({ ...WIDGETS, namespace: 'default' }, {}, (e) => events.push(e));
        await store.create(WIDGETS, { metadata: { name: 'w', namespace: 'default', finalizers: ['example.com/keep'] } });
        const marked = await store.delete(key(WIDGETS, 'w'));
        expect(marked.deleted).toBe(false);
        expect(marked.object.metadata.deletionTimestamp).toBeDefined();
        await store.update(key(WIDGETS, 'w'), { ...marked.object, metadata: { ...marked.object.metadata, finalizers: [] } });
        expect(await store.lookup(key(WIDGETS, 'w'))).toBeUndefined();
        await eventually(() => expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']));
      });
    });

    it('case 6: delete preconditions are checked; deleteCollection removes every match', async () => {
      await withStore(async ({ store }) => {
        const a = await store.create(CM, cm('a'));
        const err = await failure(store.delete(key(CM, 'a'), { preconditions: { uid: 'other' } }));
        expect(err.code).toBe('Conflict');
        for (let i = 0; i < 30; i++) await store.create(CM, cm(`bulk-${i}`));
        const deleted = await store.deleteCollection({ ...CM, namespace: 'default' });
        expect(deleted).toHaveLength(31);
        expect(deleted.map((o) => o.metadata.uid)).toContain(a.metadata.uid);
        expect(await store.count({ ...CM })).toBe(0);
      });
    });

    it('case 7: pages of a list come in order at the first page\'s version', async () => {
      await withStore(async ({ store }) => {
        for (let i = 0; i < 25; i++) await store.create(CM, cm(`p-${String(i).padStart(2, '0')}`));
        const seen: string[] = [];
        let page = await store.list({ ...CM }, { limit: 10 });
        const version = page.resourceVersion;
        seen.push(...page.items.map((o) => o.metadata.name ?? ''));
        await store.create(CM, cm('p-99'));
        while (page.continue !== undefined) {
          page = await store.list({ ...CM }, { limit: 10, continue: page.continue });
          expect(page.resourceVersion).toBe(version);
          seen.push(...page.items.map((o) => o.metadata.name ?? ''));
        }
        expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `p-${String(i).padStart(2, '0')}`));
      });
    });

    it('case 8: a watch from a version replays what came after it, in order', async () => {
      await withStore(async ({ store }) => {
        const a = await store.create(CM, cm('a'));
        await store.update(key(CM, 'a'), cm('a', { v: '2' }));
        await store.create(CM, cm('b'));
        await store.delete(key(CM, 'a'));
        const events: WatchEvent[] = [];
        const watch = await store.watch({ ...CM }, { resourceVersion: a.metadata.resourceVersion ?? '' }, (e) => events.push(e));
        await store.create(CM, cm('c'));
        await eventually(() => expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED a', 'ADDED b', 'DELETED a', 'ADDED c']));
        const versions = events.map(({ object }) => rv(object));
        expect([...versions].sort((x, y) => x - y)).toEqual(versions);
        watch.stop();
      });
    });

    it('case 9: a closed and reopened durable store holds the same objects; older watches must list again', async () => {
      const first = await open();
      if (first.reopen === undefined) {
        await first.close();
        return;
      }
      const a = await first.store.create(CM, cm('a'));
      const b = await first.store.create(WIDGETS, { metadata: { name: 'w', namespace: 'default' }, spec: { big: 'é'.repeat(10_000) } });
      await first.store.delete(key(CM, 'a'));
      const kept = await first.store.create(CM, cm('kept'));
      const version = await first.store.resourceVersion();
      const second = await first.reopen();
      try {
        expect(await second.store.get(key(WIDGETS, 'w'))).toEqual(b);
        expect(await second.store.get(key(CM, 'kept'))).toEqual(kept);
        expect(await second.store.lookup(key(CM, 'a'))).toBeUndefined();
        expect(Number(await second.store.resourceVersion())).toBeGreaterThanOrEqual(Number(version));
        expect((await failure(second.store.watch({ ...CM }, { resourceVersion: a.metadata.resourceVersion ?? '' }, () => undefined))).code).toBe('Expired');
        const next = await second.store.create(CM, cm('next'));
        expect(rv(next)).toBeGreaterThan(Number(version));
      } finally {
        await second.close();
      }
    });
  });
}
