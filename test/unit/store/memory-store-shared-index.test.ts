// Index values nearly every object of a cluster shares are kept as "the cluster's objects but the
// few that lack the value" once 1,024 objects share them. Through the store: lists, point lookups
// and counts by such a value stay exact while objects gain and lose it, across the form's switch
// back to a set (more than an eighth lack it) and back again, and across deletes.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import type { MemoryStore } from '../../../src/store/memory-store.js';
import { CM, cm, keyOf, names, newStore } from './fixtures.js';

const ALL = { group: '', resource: 'configmaps' } as const;
const N = 1_100;
const byApp = (o: KubeObject): readonly string[] => (o.metadata.labels?.['app'] ? [o.metadata.labels['app']] : []);
const nameOf = (i: number): string => `cm-${String(i).padStart(4, '0')}`;
const namespaceOf = (i: number): string => (i % 2 === 0 ? 'even' : 'odd');

async function seeded(): Promise<MemoryStore> {
  const store = await newStore();
  store.addIndex('', 'configmaps', 'app', byApp);
  for (let i = 0; i < N; i++) await store.create(CM, cm(nameOf(i), namespaceOf(i), {}, { app: 'web' }));
  return store;
}

async function relabel(store: MemoryStore, from: number, to: number, app: string): Promise<void> {
  for (let i = from; i < to; i++) {
    const key = keyOf(CM, nameOf(i), namespaceOf(i));
    const current = await store.get(key);
    await store.update(key, { ...current, metadata: { ...current.metadata, labels: { app } } });
  }
}

/** expected lists the names of objects i (those kept) in list order: namespace, then name. */
function expected(keep: (i: number) => boolean): string[] {
  const all = Array.from({ length: N }, (_, i) => i).filter(keep);
  return [...all.filter((i) => namespaceOf(i) === 'even'), ...all.filter((i) => namespaceOf(i) === 'odd')].map(nameOf);
}

async function expectApp(store: MemoryStore, app: string, want: string[]): Promise<void> {
  const listed = await store.list(ALL, { index: { name: 'app', value: app } });
  expect(names(listed.items)).toEqual(want);
  expect(new Set(names(store.indexed(CM, 'app', app)))).toEqual(new Set(want));
  const counts = await store.indexCounts('', 'configmaps', 'app');
  expect(counts.find((c) => c.value === app)?.count).toBe(want.length === 0 ? undefined : want.length);
}

describe('MemoryStore: an index value nearly every object shares', () => {
  it('case 1: 1,100 objects sharing a value list, look up and count as the value\'s objects', async () => {
    const store = await seeded();
    await expectApp(store, 'web', expected(() => true));
    expect(await store.indexCounts('', 'configmaps', 'app')).toEqual([{ cluster: 'c1', value: 'web', count: N }]);
  });

  it('case 2: objects that lose the value leave its lists; the objects that gain one join that', async () => {
    const store = await seeded();
    await relabel(store, 0, 10, 'db');
    await expectApp(store, 'web', expected((i) => i >= 10));
    await expectApp(store, 'db', expected((i) => i < 10));
  });

  it('case 3: past an eighth without the value, and back, the lists stay exact', async () => {
    const store = await seeded();
    await relabel(store, 0, 160, 'db');
    await expectApp(store, 'web', expected((i) => i >= 160));
    await expectApp(store, 'db', expected((i) => i < 160));
    await relabel(store, 0, 160, 'web');
    await expectApp(store, 'web', expected(() => true));
    await expectApp(store, 'db', []);
  });

  it('case 4: deleting objects with and without the value counts both right', async () => {
    const store = await seeded();
    await relabel(store, 0, 10, 'db');
    for (const i of [0, 1, 2, 500, 501, 1099]) await store.delete(keyOf(CM, nameOf(i), namespaceOf(i)));
    const gone = new Set([0, 1, 2, 500, 501, 1099]);
    await expectApp(store, 'web', expected((i) => i >= 10 && !gone.has(i)));
    await expectApp(store, 'db', expected((i) => i < 10 && !gone.has(i)));
    expect(await store.count(ALL)).toBe(N - gone.size);
  });

  it('case 5: another cluster\'s objects with the value are listed beside them, not inside them', async () => {
    const store = await seeded();
    await store.create({ ...CM, cluster: 'c2' }, cm('other', 'even', {}, { app: 'web' }));
    const listed = await store.list(ALL, { index: { name: 'app', value: 'web' } });
    expect(listed.items.length).toBe(N + 1);
    expect(names(store.indexed({ ...CM, cluster: 'c2' }, 'app', 'web'))).toEqual(['other']);
    expect(store.indexed(CM, 'app', 'web').length).toBe(N);
  });
});
