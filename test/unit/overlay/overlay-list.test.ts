import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { parseLabelSelector } from '../../../src/apimachinery/label-selector.js';
import { SCOPE, harness, key, obj } from './fixtures.js';

const names = (items: readonly KubeObject[]) => items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`);
const all = () => true;
const selecting = (text: string) => {
  const selector = parseLabelSelector(text);
  return (o: KubeObject) => selector.matches(o.metadata.labels);
};

describe('Overlay.mergeList', () => {
  it('case 1: without entries the cache items come back as they are, in a new array', () => {
    const { overlay } = harness();
    const items = [obj('a'), obj('b')];
    const merged = overlay.mergeList(SCOPE, items, all);
    expect(merged).toEqual(items);
    expect(merged).not.toBe(items);
  });

  it('case 2: a newer entry replaces its cache item in place; an older one does not', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('b'), obj('b', { rv: '12' }));
    overlay.recordUpsert(key('c'), obj('c', { rv: '8' }));
    const merged = overlay.mergeList(SCOPE, [obj('a'), obj('b'), obj('c')], all);
    expect(names(merged)).toEqual(['a@10', 'b@12', 'c@10']);
  });

  it('case 3: tombstoned items are dropped; a tombstone overtaken by a recreate is not', () => {
    const { overlay } = harness();
    overlay.recordDelete(key('a'), obj('a', { rv: '10' }));
    overlay.recordDelete(key('b'), obj('b', { rv: '10' }));
    const merged = overlay.mergeList(SCOPE, [obj('a'), obj('b', { rv: '14', uid: 'new' }), obj('c')], all);
    expect(names(merged)).toEqual(['b@14', 'c@10']);
    expect(overlay.size().tombstones).toBe(1);
  });

  it('case 4: a label change moves an object out of the old selection and into the new one', () => {
    const { overlay } = harness();
    const cached = [obj('a', { labels: { tier: 'web' } }), obj('b', { labels: { tier: 'web' } })];
    overlay.recordUpsert(key('a'), obj('a', { rv: '11', labels: { tier: 'db' } }));
    const web = cached.filter(selecting('tier=web'));
    expect(names(overlay.mergeList(SCOPE, web, selecting('tier=web')))).toEqual(['b@10']);
    const db = cached.filter(selecting('tier=db'));
    expect(names(overlay.mergeList(SCOPE, db, selecting('tier=db')))).toEqual(['a@11']);
  });

  it('case 5: overlay-only entries that match are appended after the cache items, sorted by namespace/name', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('z'), obj('z', { labels: { app: 'x' } }));
    overlay.recordUpsert(key('m', 'a-ns'), obj('m', { namespace: 'a-ns', labels: { app: 'x' } }));
    overlay.recordUpsert(key('b'), obj('b', { labels: { app: 'y' } }));
    overlay.recordDelete(key('t'), obj('t'));
    const merged = overlay.mergeList(SCOPE, [obj('k', { labels: { app: 'x' } })], selecting('app=x'));
    expect(merged.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['default/k', 'a-ns/m', 'default/z']);
  });

  it('case 6: a namespaced scope only merges entries of that namespace', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a', 'ns1'), obj('a', { namespace: 'ns1' }));
    overlay.recordUpsert(key('b', 'ns2'), obj('b', { namespace: 'ns2' }));
    expect(names(overlay.mergeList({ ...SCOPE, namespace: 'ns1' }, [], all))).toEqual(['a@10']);
    expect(names(overlay.mergeList({ ...SCOPE, namespace: '' }, [], all))).toEqual(['a@10', 'b@10']);
  });

  it('case 7: other resources, clusters and shards are not merged', () => {
    const { overlay } = harness();
    overlay.recordUpsert({ ...key('a'), resource: 'gadgets' }, obj('a'));
    overlay.recordUpsert({ ...key('b'), cluster: 'team-b' }, obj('b'));
    overlay.recordUpsert({ ...key('c'), shard: 'beta' }, obj('c'));
    expect(overlay.mergeList(SCOPE, [], all)).toEqual([]);
  });

  it('case 8: cacheLookup keeps a stale overlay-only entry out when the cache copy exists but does not match', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '10', uid: 'old', labels: { app: 'x' } }));
    const copy = obj('a', { rv: '12', uid: 'new', labels: { app: 'y' } });
    expect(overlay.mergeList(SCOPE, [], selecting('app=x'))).toHaveLength(1);
    expect(overlay.mergeList(SCOPE, [], selecting('app=x'), () => copy)).toEqual([]);
  });

  it('case 9: entries the cache has caught up with are evicted while merging', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '10' }));
    overlay.recordUpsert(key('b'), obj('b', { rv: '10' }));
    overlay.mergeList(SCOPE, [obj('a', { rv: '10' })], all, (_ns, name) => (name === 'b' ? obj('b', { rv: '11' }) : undefined));
    expect(overlay.size().live).toBe(0);
    expect(overlay.evictions().cache).toBe(2);
  });
});

describe('Overlay.recordDeleteAllOf', () => {
  const tierWeb = selecting('tier=web');

  it('case 1: hides matching cache-only objects at once and leaves the others', () => {
    const { overlay } = harness();
    const cached = [obj('a', { labels: { tier: 'web' } }), obj('b', { labels: { tier: 'db' } }), obj('c', { labels: { tier: 'web' } })];
    overlay.recordDeleteAllOf(SCOPE, tierWeb, cached.filter(tierWeb));
    expect(names(overlay.mergeList(SCOPE, cached, all))).toEqual(['b@10']);
    expect(overlay.size()).toEqual({ live: 0, tombstones: 2 });
  });

  it('case 2: tombstones matching overlay entries and keeps the ones that do not match', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a', { labels: { tier: 'web' } }));
    overlay.recordUpsert(key('b'), obj('b', { labels: { tier: 'db' } }));
    overlay.recordDeleteAllOf(SCOPE, tierWeb, []);
    expect(names(overlay.mergeList(SCOPE, [], all))).toEqual(['b@10']);
    expect(overlay.size()).toEqual({ live: 1, tombstones: 1 });
  });

  it('case 3: judges the newest version: a cache copy relabelled by our newer write is not deleted', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '11', labels: { tier: 'db' } }));
    overlay.recordDeleteAllOf(SCOPE, tierWeb, [obj('a', { rv: '10', labels: { tier: 'web' } })]);
    expect(names(overlay.mergeList(SCOPE, [obj('a', { rv: '10', labels: { tier: 'web' } })], all))).toEqual(['a@11']);
  });

  it('case 4: respects the namespace of the scope, even for cache objects passed by mistake', () => {
    const { overlay } = harness();
    const inNs1 = obj('a', { namespace: 'ns1' });
    const inNs2 = obj('a', { namespace: 'ns2' });
    overlay.recordDeleteAllOf({ ...SCOPE, namespace: 'ns1' }, all, [inNs1, inNs2]);
    expect(overlay.mergeList(SCOPE, [inNs1, inNs2], all)).toEqual([inNs2]);
  });

  it('case 5: the tombstones go when the cache reports the deletions', () => {
    const { overlay } = harness();
    const cached = [obj('a', { labels: { tier: 'web' } })];
    overlay.recordDeleteAllOf(SCOPE, tierWeb, cached);
    overlay.observe(key('a'), { uid: 'uid-a', resourceVersion: '10', deleted: true });
    expect(overlay.size().tombstones).toBe(0);
  });
});

describe('Overlay.entriesIn', () => {
  it('case 1: lists unexpired entries of a scope, sorted, and drops expired ones', () => {
    const { overlay, clock } = harness();
    overlay.recordUpsert(key('b'), obj('b'));
    clock.now = 500;
    overlay.recordDelete(key('a'), obj('a'));
    overlay.recordUpsert({ ...key('c'), resource: 'gadgets' }, obj('c'));
    expect(overlay.entriesIn(SCOPE).map((e) => `${e.key.name}:${e.deleted}`)).toEqual(['a:true', 'b:false']);
    clock.now = 1000;
    expect(overlay.entriesIn(SCOPE).map((e) => e.key.name)).toEqual(['a']);
    expect(overlay.size()).toEqual({ live: 1, tombstones: 1 });
  });
});
