import { describe, expect, it } from 'vitest';
import { harness, key, obj, rvOf } from './fixtures.js';
import { numbered } from '../apimachinery/numbered.js';

describe('Overlay.observe: the seed eviction table (entry at RV "10")', () => {
  const cases = numbered([
    { name: 'observed RV 9 keeps', observed: { uid: 'uid-a', resourceVersion: '9' }, evicted: false },
    { name: 'observed RV 10 evicts', observed: { uid: 'uid-a', resourceVersion: '10' }, evicted: true },
    { name: 'observed RV 11 evicts', observed: { uid: 'uid-a', resourceVersion: '11' }, evicted: true },
    { name: 'UID mismatch at RV 11 keeps', observed: { uid: 'other', resourceVersion: '11' }, evicted: false },
    { name: 'empty observed UID counts as a match', observed: { uid: '', resourceVersion: '10' }, evicted: true },
    { name: 'deleted copy of the same UID at RV 10 evicts', observed: { uid: 'uid-a', resourceVersion: '10', deleted: true }, evicted: true },
    { name: 'deletion with unknown UID keeps a live entry', observed: undefined, evicted: false },
  ]);

  it.each(cases)('case $n: $name', ({ observed, evicted }) => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '10' }));
    overlay.observe(key('a'), observed);
    expect(overlay.size()).toEqual({ live: evicted ? 0 : 1, tombstones: 0 });
    expect(overlay.evictions()).toEqual({ cache: evicted ? 1 : 0, ttl: 0 });
  });

  it('case 8: an empty entry UID counts as a match', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '10', uid: '' }));
    overlay.observe(key('a'), { uid: 'anything', resourceVersion: '10' });
    expect(overlay.size().live).toBe(0);
  });

  it('case 9: an observation of another key changes nothing', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a'));
    overlay.observe(key('b'), { uid: 'uid-a', resourceVersion: '99' });
    overlay.observe(key('a', 'other-ns'), { uid: 'uid-a', resourceVersion: '99' });
    expect(overlay.size().live).toBe(1);
  });
});

describe('Overlay.observe: tombstones (deleted at RV "10")', () => {
  const cases = numbered([
    { name: 'deletion with unknown UID evicts', observed: undefined, evicted: true },
    { name: 'deleted copy with the same UID evicts', observed: { uid: 'uid-a', resourceVersion: '10', deleted: true }, evicted: true },
    { name: 'deleted copy of another UID keeps', observed: { uid: 'old', resourceVersion: '5', deleted: true }, evicted: false },
    { name: 'a late event for the deleted version keeps (the seed would evict)', observed: { uid: 'uid-a', resourceVersion: '10' }, evicted: false },
    { name: 'an older event keeps', observed: { uid: 'uid-a', resourceVersion: '9' }, evicted: false },
    { name: 'a recreate with a new UID and newer RV evicts', observed: { uid: 'new', resourceVersion: '12' }, evicted: true },
  ]);

  it.each(cases)('case $n: $name', ({ observed, evicted }) => {
    const { overlay } = harness();
    overlay.recordDelete(key('a'), obj('a', { rv: '10' }));
    overlay.observe(key('a'), observed);
    expect(overlay.size()).toEqual({ live: 0, tombstones: evicted ? 0 : 1 });
  });
});

describe('Overlay: the cache catching up', () => {
  it('case 1: own event before the upsert: the entry is dropped at once when the cache copy is passed', () => {
    const { overlay, changes } = harness();
    const written = obj('a', { rv: '11' });
    overlay.recordUpsert(key('a'), written, obj('a', { rv: '11' }));
    expect(overlay.size()).toEqual({ live: 0, tombstones: 0 });
    expect(overlay.evictions().cache).toBe(1);
    expect(changes).toEqual([]);
  });

  it('case 2: own event before the upsert, cache copy not passed: resolve returns the cache copy and drops the entry', () => {
    const { overlay } = harness();
    const cached = obj('a', { rv: '11' });
    overlay.recordUpsert(key('a'), obj('a', { rv: '11' }));
    expect(overlay.resolve(key('a'), cached)).toEqual({ object: cached, source: 'cache' });
    expect(overlay.size().live).toBe(0);
  });

  it('case 3: no-op update (same RV as the cache): the cache wins and the next observe evicts', () => {
    const { overlay } = harness();
    const cached = obj('a', { rv: '10' });
    overlay.recordUpsert(key('a'), obj('a', { rv: '10' }));
    overlay.observe(key('a'), { uid: 'uid-a', resourceVersion: '10' });
    expect(overlay.size().live).toBe(0);
    expect(overlay.resolve(key('a'), cached).source).toBe('cache');
  });

  it('case 4: a newer write survives an older event, then goes with its own', () => {
    const { overlay, changes } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '12' }));
    overlay.observe(key('a'), { uid: 'uid-a', resourceVersion: '11' });
    expect(rvOf(overlay.resolve(key('a'), obj('a', { rv: '11' })).object)).toBe('12');
    overlay.observe(key('a'), { uid: 'uid-a', resourceVersion: '12' });
    expect(overlay.size().live).toBe(0);
    expect(changes).toEqual([{ live: 1, tombstones: 0 }, { live: 0, tombstones: 0 }]);
  });

  it('case 5: a late upsert older than the recorded write of the same UID is ignored', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '12' }));
    overlay.recordUpsert(key('a'), obj('a', { rv: '11' }));
    expect(rvOf(overlay.resolve(key('a'), undefined).object)).toBe('12');
  });

  it('case 6: a tombstone already overtaken by the cache (copy newer) is not kept', () => {
    const { overlay } = harness();
    overlay.recordDelete(key('a'), obj('a', { rv: '10' }), obj('a', { rv: '11', uid: 'new' }));
    expect(overlay.size().tombstones).toBe(0);
  });
});
