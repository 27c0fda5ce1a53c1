import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { CM, cm, keyOf, names, newStore } from './fixtures.js';
import { labelEquals, nameEquals, nameNot } from './selectors.js';

const ALL = { group: '', resource: 'configmaps' } as const;

async function seeded(): ReturnType<typeof newStore> {
  const store = await newStore();
  await store.create(CM, cm('b', 'ns2', {}, { app: 'web' }));
  await store.create(CM, cm('a', 'ns2', {}, { app: 'db' }));
  await store.create(CM, cm('z', 'ns1', {}, { app: 'web' }));
  await store.create({ ...CM, cluster: 'c0' }, cm('m', 'ns9', {}, { app: 'web' }));
  await store.create({ ...CM, cluster: 'c2' }, cm('a', 'ns1', {}, { app: 'web' }));
  return store;
}

describe('MemoryStore list', () => {
  const cases: { name: string; scope: Record<string, string>; opts?: object; want: string[] }[] = [
    { name: 'one cluster sorted by namespace then name', scope: { cluster: 'c1' }, want: ['z', 'a', 'b'] },
    { name: 'all clusters sorted by cluster, namespace, name', scope: {}, want: ['m', 'z', 'a', 'b', 'a'] },
    { name: 'one namespace of one cluster', scope: { cluster: 'c1', namespace: 'ns2' }, want: ['a', 'b'] },
    { name: 'one namespace across clusters', scope: { namespace: 'ns1' }, want: ['z', 'a'] },
    { name: 'label selector', scope: { cluster: 'c1' }, opts: { labelSelector: labelEquals({ app: 'web' }) }, want: ['z', 'b'] },
    { name: 'field selector', scope: {}, opts: { fieldSelector: nameEquals('a') }, want: ['a', 'a'] },
    { name: 'field selector !=', scope: { cluster: 'c1' }, opts: { fieldSelector: nameNot('a') }, want: ['z', 'b'] },
    { name: 'unknown cluster', scope: { cluster: 'nope' }, want: [] },
  ];
  cases.forEach((c, i) => {
    it(`case ${i + 1}: ${c.name}`, async () => {
      const store = await seeded();
      const result = await store.list({ ...ALL, ...c.scope }, c.opts);
      expect(names(result.items)).toEqual(c.want);
      expect(result.resourceVersion).toBe('5');
      expect(result.continue).toBeUndefined();
    });
  });

  it('case 9: count uses the scope without listing', async () => {
    const store = await seeded();
    expect(await store.count(ALL)).toBe(5);
    expect(await store.count({ ...ALL, cluster: 'c1' })).toBe(3);
    expect(await store.count({ ...ALL, cluster: 'c1', namespace: 'ns2' })).toBe(2);
    expect(await store.count({ ...ALL, namespace: 'ns1' })).toBe(2);
    expect(await store.count({ group: 'x', resource: 'y' })).toBe(0);
  });

  it('case 10: an unknown resource lists empty with the store version', async () => {
    const store = await seeded();
    expect(await store.list({ group: 'x', resource: 'y' })).toEqual({ items: [], resourceVersion: '5' });
  });
});

describe('MemoryStore indexes', () => {
  const byApp = (o: KubeObject): readonly string[] => (o.metadata.labels?.app ? [o.metadata.labels.app] : []);

  it('case 1: existing objects are indexed at once, per cluster and namespace', async () => {
    const store = await seeded();
    store.addIndex('', 'configmaps', 'app', byApp);
    expect(names((await store.list(ALL, { index: { name: 'app', value: 'web' } })).items)).toEqual(['m', 'z', 'b', 'a']);
    expect(names((await store.list({ ...ALL, cluster: 'c1' }, { index: { name: 'app', value: 'web' } })).items)).toEqual(['z', 'b']);
    expect(names((await store.list({ ...ALL, namespace: 'ns1' }, { index: { name: 'app', value: 'web' } })).items)).toEqual(['z', 'a']);
    expect((await store.list(ALL, { index: { name: 'app', value: 'none' } })).items).toEqual([]);
  });

  it('case 2: updates move objects between buckets and deletes drop them', async () => {
    const store = await newStore();
    store.addIndex('', 'configmaps', 'app', byApp);
    for (const n of ['a', 'b', 'c']) await store.create(CM, cm(n, 'd', {}, { app: 'web' }));
    await store.update(keyOf(CM, 'b', 'd'), cm('b', 'd', {}, { app: 'db' }));
    await store.update(keyOf(CM, 'c', 'd'), cm('c', 'd', { data: { v: '2' } }, { app: 'web' }));
    await store.delete(keyOf(CM, 'a', 'd'));
    const web = (await store.list(ALL, { index: { name: 'app', value: 'web' } })).items;
    expect(names(web)).toEqual(['c']);
    expect(web[0]).toBe(await store.get(keyOf(CM, 'c', 'd')));
    expect(names((await store.list(ALL, { index: { name: 'app', value: 'db' } })).items)).toEqual(['b']);
  });

  it('case 3: index combines with selectors', async () => {
    const store = await seeded();
    store.addIndex('', 'configmaps', 'app', byApp);
    const items = (await store.list(ALL, { index: { name: 'app', value: 'web' }, fieldSelector: nameEquals('a') })).items;
    expect(names(items)).toEqual(['a']);
  });

  it('case 4: an unknown index is a BadRequest', async () => {
    const store = await seeded();
    await expect(store.list(ALL, { index: { name: 'x', value: 'y' } })).rejects.toMatchObject({ code: 'BadRequest', message: 'index "x" is not registered' });
  });

  it('case 5: the index never calls the selector on objects outside its bucket', async () => {
    const store = await newStore();
    store.addIndex('', 'configmaps', 'app', byApp);
    for (let i = 0; i < 50; i++) await store.create(CM, cm(`o${i}`, 'd', {}, { app: i < 3 ? 'rare' : 'common' }));
    let calls = 0;
    const counting = { ...labelEquals({}), empty: false, matches: () => (calls++, true) };
    await store.list(ALL, { index: { name: 'app', value: 'rare' }, labelSelector: counting });
    expect(calls).toBe(3);
  });

  it('case 6: indexed reads one bucket synchronously, in one cluster or all, and the same objects list returns', async () => {
    const store = await seeded();
    store.addIndex('', 'configmaps', 'app', byApp);
    const all = store.indexed(ALL, 'app', 'web');
    expect(names(all).sort()).toEqual(['a', 'b', 'm', 'z']);
    expect(names(store.indexed({ ...ALL, cluster: 'c1' }, 'app', 'web')).sort()).toEqual(['b', 'z']);
    expect(store.indexed({ ...ALL, cluster: 'nope' }, 'app', 'web')).toEqual([]);
    expect(store.indexed(ALL, 'app', 'none')).toEqual([]);
    const listed = (await store.list(ALL, { index: { name: 'app', value: 'web' } })).items;
    for (const obj of listed) expect(all).toContain(obj);
    expect(() => store.indexed(ALL, 'x', 'y')).toThrow('index "x" is not registered');
  });

  it('case 7: indexed answers a fresh array each time, so a caller may narrow it in place', async () => {
    const store = await seeded();
    store.addIndex('', 'configmaps', 'app', byApp);
    for (const scope of [ALL, { ...ALL, cluster: 'c1' }]) {
      const first = store.indexed(scope, 'app', 'web');
      first.length = 0;
      expect(store.indexed(scope, 'app', 'web').length).toBeGreaterThan(0);
    }
    const single = store.indexed({ ...ALL, cluster: 'c1' }, 'app', 'web');
    single.splice(1);
    expect(names(store.indexed({ ...ALL, cluster: 'c1' }, 'app', 'web')).sort()).toEqual(['b', 'z']);
  });
});

describe('MemoryStore paging', () => {
  async function many(n: number, opts = {}): ReturnType<typeof newStore> {
    const store = await newStore(opts);
    for (let i = 0; i < n; i++) await store.create(CM, cm(`o${String(i).padStart(3, '0')}`));
    return store;
  }

  it('case 1: pages are complete, report remainingItemCount and end without a token', async () => {
    const store = await many(10);
    const first = await store.list(ALL, { limit: 4 });
    expect(names(first.items)).toEqual(['o000', 'o001', 'o002', 'o003']);
    expect(first.remainingItemCount).toBe(6);
    expect(first.continue).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = await store.list(ALL, { limit: 4, continue: first.continue });
    expect(second.remainingItemCount).toBe(2);
    const last = await store.list(ALL, { limit: 4, continue: second.continue });
    expect(names(last.items)).toEqual(['o008', 'o009']);
    expect(last.continue).toBeUndefined();
    expect(last.remainingItemCount).toBeUndefined();
  });

  it('case 2: pages follow the first snapshot while the store changes', async () => {
    const store = await many(20);
    const seen: string[] = [];
    let page = await store.list(ALL, { limit: 3 });
    const rv = page.resourceVersion;
    let writes = 0;
    for (;;) {
      seen.push(...names(page.items));
      expect(page.resourceVersion).toBe(rv);
      if (page.continue === undefined) break;
      // Concurrent writes: delete an unseen object, create a new one sorting first, update another.
      await store.delete(keyOf(CM, `o${String(19 - writes).padStart(3, '0')}`));
      await store.create(CM, cm(`a${writes}`));
      await store.update(keyOf(CM, `o${String(writes).padStart(3, '0')}`), cm(`o${String(writes).padStart(3, '0')}`, 'default', { data: { v: 'x' } }));
      writes++;
      page = await store.list(ALL, { limit: 3, continue: page.continue });
    }
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => `o${String(i).padStart(3, '0')}`));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('case 3: a garbled token is a BadRequest', async () => {
    const store = await many(5);
    for (const token of ['%%%', 'bm90IGpzb24', Buffer.from('{"s":"x","o":1}').toString('base64url')]) {
      await expect(store.list(ALL, { limit: 2, continue: token })).rejects.toMatchObject({ code: 'BadRequest', message: expect.stringMatching(/^continue key is not valid: /) });
    }
  });

  it('case 4: a token of different list options is a BadRequest', async () => {
    const store = await many(5);
    const first = await store.list(ALL, { limit: 2 });
    await expect(store.list({ ...ALL, namespace: 'other' }, { limit: 2, continue: first.continue })).rejects.toMatchObject({ code: 'BadRequest' });
  });

  const expiredMessage = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';

  it('case 5: a token past its TTL is Expired', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = await many(5, { now: () => new Date(now), continueTtlMs: 1000 });
    const first = await store.list(ALL, { limit: 2 });
    now += 1001;
    await expect(store.list(ALL, { limit: 2, continue: first.continue })).rejects.toMatchObject({ code: 'Expired', message: expiredMessage });
  });

  it('case 6: the oldest snapshot is evicted beyond maxSnapshots', async () => {
    const store = await many(5, { maxSnapshots: 2 });
    const tokens: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) tokens.push((await store.list(ALL, { limit: 2 })).continue);
    await expect(store.list(ALL, { limit: 2, continue: tokens[0] })).rejects.toMatchObject({ code: 'Expired' });
    expect((await store.list(ALL, { limit: 2, continue: tokens[2] })).items).toHaveLength(2);
  });

  it('case 7: a limit not below the match count returns everything without a token', async () => {
    const store = await many(3);
    const result = await store.list(ALL, { limit: 3 });
    expect(result.items).toHaveLength(3);
    expect(result.continue).toBeUndefined();
  });

  it('case 8: under churn, snapshots beyond maxSnapshotItems references are evicted oldest first', async () => {
    const store = await many(5, { maxSnapshotItems: 8 });
    const first = await store.list(ALL, { limit: 2 });
    await store.create(CM, cm('o005'));
    const second = await store.list(ALL, { limit: 2 });
    // 5 + 6 references would exceed 8: the first snapshot went to make room.
    await expect(store.list(ALL, { limit: 2, continue: first.continue })).rejects.toMatchObject({ code: 'Expired' });
    expect((await store.list(ALL, { limit: 2, continue: second.continue })).items.map((o) => o.metadata.name)).toEqual(['o002', 'o003']);
  });

  it('case 9: snapshots of an unchanged index bucket share one array and count once', async () => {
    const store = await many(5, { maxSnapshotItems: 8 });
    store.addIndex('', 'configmaps', 'all', () => ['yes']);
    const index = { name: 'all', value: 'yes' };
    const tokens: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) tokens.push((await store.list(ALL, { index, limit: 2 })).continue);
    for (const token of tokens) expect((await store.list(ALL, { index, limit: 2, continue: token })).items).toHaveLength(2);
  });

  it('case 10: one list larger than maxSnapshotItems still pages to the end', async () => {
    const store = await many(5, { maxSnapshotItems: 3 });
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await store.list(ALL, { limit: 2, ...(token ? { continue: token } : {}) });
      names.push(...page.items.map((o) => o.metadata.name ?? ''));
      token = page.continue;
    } while (token);
    expect(names).toEqual(['o000', 'o001', 'o002', 'o003', 'o004']);
  });
});

describe('MemoryStore paged lists of one cluster (first page picked without a sort of every match)', () => {
  // Created in an order far from list order, across namespaces, so a page cut from unsorted matches would show.
  async function shuffled(): ReturnType<typeof newStore> {
    const store = await newStore();
    for (let i = 0; i < 240; i++) {
      const n = (i * 97) % 240;
      await store.create(CM, cm(`cm-${String(n).padStart(3, '0')}`, `ns${n % 3}`, {}, { app: n % 2 === 0 ? 'web' : 'db' }));
    }
    return store;
  }
  const keys = (items: readonly KubeObject[]): string[] => items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`);

  async function paged(store: Awaited<ReturnType<typeof newStore>>, scope: object, limit: number, opts: object = {}): Promise<string[]> {
    const out: string[] = [];
    let page = await store.list({ ...ALL, ...scope }, { ...opts, limit });
    out.push(...keys(page.items));
    while (page.continue !== undefined) {
      expect(page.items.length).toBe(limit);
      page = await store.list({ ...ALL, ...scope }, { ...opts, limit, continue: page.continue });
      out.push(...keys(page.items));
    }
    return out;
  }

  const cases = [
    { n: 1, limit: 1, scope: { cluster: 'c1' } },
    { n: 2, limit: 7, scope: { cluster: 'c1' } },
    { n: 3, limit: 100, scope: { cluster: 'c1' } },
    { n: 4, limit: 239, scope: { cluster: 'c1' } },
    { n: 5, limit: 240, scope: { cluster: 'c1' } },
    { n: 6, limit: 500, scope: { cluster: 'c1' } },
    { n: 7, limit: 9, scope: { cluster: 'c1', namespace: 'ns1' } },
    { n: 8, limit: 9, scope: {}, opts: { labelSelector: labelEquals({ app: 'web' }) } },
  ];
  it.each(cases)('case $n: pages of $limit, joined, are the unpaged list in order', async ({ limit, scope, opts }) => {
    const store = await shuffled();
    const whole = keys((await store.list({ ...ALL, ...scope }, opts)).items);
    expect(whole.length).toBeGreaterThan(0);
    expect(whole).toEqual([...whole].sort());
    expect(await paged(store, scope, limit, opts)).toEqual(whole);
  });

  it('case 9: the first page is the first in order even when later pages are never asked for', async () => {
    const store = await shuffled();
    const first = await store.list({ ...ALL, cluster: 'c1' }, { limit: 3 });
    expect(keys(first.items)).toEqual(['ns0/cm-000', 'ns0/cm-003', 'ns0/cm-006']);
    expect(first.remainingItemCount).toBe(237);
  });
});
