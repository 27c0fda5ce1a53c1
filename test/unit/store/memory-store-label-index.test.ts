// A list, watch or collection delete whose label selector names a label with a label index is
// planned onto that index: a selective value reads its bucket, a value every object carries drops
// out of the selector. Either way the answer must be exactly what the same request gives on a
// store without the index: the same objects, in the same order, page after page.

import { describe, expect, it } from 'vitest';
import { parseLabelSelector } from '../../../src/apimachinery/label-selector.js';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { labelIndexFunc, labelIndexName } from '../../../src/apimachinery/label-index.js';
import type { MemoryStore } from '../../../src/store/memory-store.js';
import type { Scope } from '../../../src/store/store.js';
import { numbered } from '../apimachinery/numbered.js';
import { CM, cm, keyOf, names, newStore, recorder } from './fixtures.js';

const ALL: Scope = { group: '', resource: 'configmaps' };
const C1: Scope = { ...ALL, cluster: 'c1' };
const C2: Scope = { ...ALL, cluster: 'c2' };

// c1: 150 web, 20 db, 10 cache and 20 unlabelled objects over two namespaces; c2: 1,100 web, so
// that c2's web bucket is kept as "every object but none".
function app(i: number): string | undefined {
  if (i < 150) return 'web';
  if (i < 170) return 'db';
  if (i < 180) return 'cache';
  return undefined;
}

async function seeded(indexed: boolean): Promise<MemoryStore> {
  const store = await newStore();
  if (indexed) store.addIndex('', 'configmaps', labelIndexName('app'), labelIndexFunc('app'));
  for (let i = 0; i < 200; i++) {
    const label = app(i);
    await store.create(CM, cm(`a-${String(i).padStart(3, '0')}`, i % 2 === 0 ? 'even' : 'odd', {}, label === undefined ? { tier: 't' } : { app: label, tier: i % 3 === 0 ? 'x' : 't' }));
  }
  for (let i = 0; i < 1_100; i++) await store.create({ ...CM, cluster: 'c2' }, cm(`b-${String(i).padStart(4, '0')}`, 'default', {}, { app: 'web' }));
  return store;
}

/** pages lists every page of limit items and returns all names, in order. */
async function pages(store: MemoryStore, scope: Scope, selector: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  let token: string | undefined;
  do {
    const page = await store.list(scope, { labelSelector: parseLabelSelector(selector), limit, ...(token ? { continue: token } : {}) });
    out.push(...names(page.items));
    token = page.continue;
  } while (token);
  return out;
}

describe('MemoryStore: label selectors planned onto a label index', () => {
  const cases = numbered([
    { name: 'a selective value (its bucket)', scope: C1, selector: 'app=db' },
    { name: 'a value most objects carry, not all (a scan)', scope: C1, selector: 'app=web' },
    { name: 'a value every object of the cluster carries (dropped from the selector)', scope: C2, selector: 'app=web' },
    { name: 'a value no object carries', scope: C1, selector: 'app=none' },
    { name: 'in: several selective values', scope: C1, selector: 'app in (cache,db)' },
    { name: 'the planned requirement with another one', scope: C1, selector: 'app=db,tier=x' },
    { name: 'a dropped requirement with another one', scope: C2, selector: 'app=web,tier!=t' },
    { name: 'one namespace', scope: { ...C1, namespace: 'odd' }, selector: 'app=db' },
    { name: 'every cluster', scope: ALL, selector: 'app=db' },
    { name: 'every cluster, a value most carry', scope: ALL, selector: 'app=web' },
    { name: 'a requirement the index cannot answer', scope: C1, selector: 'app!=web' },
  ]);

  it.each(cases)('case $n: $name', async ({ scope, selector }) => {
    const [plain, indexed] = [await seeded(false), await seeded(true)];
    const want = names((await plain.list(scope, { labelSelector: parseLabelSelector(selector) })).items);
    expect(names((await indexed.list(scope, { labelSelector: parseLabelSelector(selector) })).items)).toEqual(want);
    expect(await pages(indexed, scope, selector, 7)).toEqual(want);
    expect(await pages(indexed, scope, selector, 1)).toEqual(want);
  });

  it(`case ${cases.length + 1}: lists stay exact while objects gain, lose and change the value`, async () => {
    const [plain, indexed] = [await seeded(false), await seeded(true)];
    const relabel = async (store: MemoryStore, cluster: string, name: string, namespace: string, labels: Record<string, string>): Promise<void> => {
      const key = keyOf({ ...CM, cluster }, name, namespace);
      const current = await store.get(key);
      await store.update(key, { ...current, metadata: { ...current.metadata, labels } } as KubeObject);
    };
    for (const store of [plain, indexed]) {
      await relabel(store, 'c2', 'b-0007', 'default', { app: 'db' });
      await relabel(store, 'c1', 'a-151', 'odd', { app: 'web' });
      await relabel(store, 'c1', 'a-190', 'even', { app: 'db' });
      await store.delete(keyOf(CM, 'a-160', 'even'));
    }
    for (const [scope, selector] of [[C2, 'app=web'], [C2, 'app=db'], [C1, 'app=db'], [C1, 'app=web'], [ALL, 'app in (db,web)']] as const) {
      const want = names((await plain.list(scope, { labelSelector: parseLabelSelector(selector) })).items);
      expect(await pages(indexed, scope, selector, 50)).toEqual(want);
    }
  });

  it(`case ${cases.length + 2}: a watch's initial events and a collection delete select the same objects`, async () => {
    const [plain, indexed] = [await seeded(false), await seeded(true)];
    for (const selector of ['app=db', 'app=web']) {
      const [a, b] = [recorder(), recorder()];
      const watches = [await plain.watch(ALL, { labelSelector: parseLabelSelector(selector) }, a.listener), await indexed.watch(ALL, { labelSelector: parseLabelSelector(selector) }, b.listener)];
      expect(b.summary()).toEqual(a.summary());
      expect(b.summary().length).toBeGreaterThan(0);
      for (const watch of watches) watch.stop();
    }
    const deleted = await Promise.all([plain, indexed].map((store) => store.deleteCollection(C1, { labelSelector: parseLabelSelector('app in (cache,db)') })));
    expect(names(deleted[1] ?? []).sort()).toEqual(names(deleted[0] ?? []).sort());
    expect(deleted[1]).toHaveLength(30);
    expect(names((await indexed.list(C1, {})).items)).toEqual(names((await plain.list(C1, {})).items));
  });
});
