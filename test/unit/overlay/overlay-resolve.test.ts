import { describe, expect, it } from 'vitest';
import { isNewer } from '../../../src/overlay/eviction-rule.js';
import { survivesDelete } from '../../../src/overlay/delete-outcome.js';
import { Overlay } from '../../../src/overlay/overlay.js';
import { versionOf } from '../../../src/overlay/overlay-entry.js';
import { TTL, harness, key, obj, rvOf } from './fixtures.js';
import { numbered } from '../apimachinery/numbered.js';

describe('Overlay.resolve: newer of entry and cache copy', () => {
  const cases = numbered([
    { name: 'no entry: the cache copy', entry: undefined, cache: '10', want: '10', source: 'cache' },
    { name: 'entry newer than the cache copy: the entry', entry: '12', cache: '10', want: '12', source: 'overlay' },
    { name: 'entry equal to the cache copy: the cache copy', entry: '10', cache: '10', want: '10', source: 'cache' },
    { name: 'entry older than the cache copy: the cache copy', entry: '9', cache: '10', want: '10', source: 'cache' },
    { name: 'not yet in the cache: the entry', entry: '5', cache: undefined, want: '5', source: 'overlay' },
    { name: 'numeric comparison: 100 beats 99', entry: '100', cache: '99', want: '100', source: 'overlay' },
  ]);

  it.each(cases)('case $n: $name', ({ entry, cache, want, source }) => {
    const { overlay } = harness();
    if (entry !== undefined) overlay.recordUpsert(key('a'), obj('a', { rv: entry }));
    const copy = cache === undefined ? undefined : obj('a', { rv: cache });
    const got = overlay.resolve(key('a'), copy);
    expect(rvOf(got.object)).toBe(want);
    expect(got.source).toBe(source);
  });

  it('case 7: an entry of another UID that is not newer loses but stays (seed: UID mismatch keeps)', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '10', uid: 'old' }));
    const cached = obj('a', { rv: '11', uid: 'new' });
    expect(overlay.resolve(key('a'), cached)).toEqual({ object: cached, source: 'cache' });
    expect(overlay.size().live).toBe(1);
  });

  it('case 8: never returns an entry older than the cache copy, over every pair of versions', () => {
    for (let written = 1; written <= 12; written++) {
      for (let cached = 1; cached <= 12; cached++) {
        for (const uid of ['uid-a', 'other']) {
          const { overlay } = harness();
          overlay.recordUpsert(key('a'), obj('a', { rv: String(written) }));
          const copy = obj('a', { rv: String(cached), uid });
          const got = overlay.resolve(key('a'), copy).object ?? obj('missing', { rv: '' });
          expect(isNewer(versionOf(copy), versionOf(got))).toBe(false);
        }
      }
    }
  });

  it('case 9: stored objects are frozen copies, so a caller mutating its object changes nothing', () => {
    const { overlay } = harness();
    const written = obj('a', { rv: '12', labels: { app: 'x' } });
    overlay.recordUpsert(key('a'), written);
    (written.metadata.labels as Record<string, string>).app = 'changed';
    const got = overlay.resolve(key('a'), undefined).object;
    expect(got?.metadata.labels).toEqual({ app: 'x' });
    expect(Object.isFrozen(got?.metadata.labels)).toBe(true);
  });

  it('case 10: the core group written "core" or "" is the same key', () => {
    const { overlay } = harness();
    overlay.recordUpsert({ ...key('a'), group: 'core' }, obj('a', { rv: '12' }));
    expect(overlay.resolve({ ...key('a'), group: '' }, undefined).source).toBe('overlay');
  });
});

describe('Overlay.resolve: tombstones', () => {
  it('case 1: a tombstone hides the cache copy it deleted', () => {
    const { overlay } = harness();
    overlay.recordDelete(key('a'), obj('a', { rv: '10' }));
    expect(overlay.resolve(key('a'), obj('a', { rv: '10' }))).toEqual({ object: undefined, source: 'overlay' });
    expect(overlay.resolve(key('a'), obj('a', { rv: '9' })).object).toBeUndefined();
  });

  it('case 2: with no cache copy there is nothing to hide; the tombstone stays for a late copy', () => {
    const { overlay } = harness();
    overlay.recordDelete(key('a'), obj('a', { rv: '10' }));
    expect(overlay.resolve(key('a'), undefined)).toEqual({ object: undefined, source: 'cache' });
    expect(overlay.size().tombstones).toBe(1);
    expect(overlay.resolve(key('a'), obj('a', { rv: '7' })).object).toBeUndefined();
  });

  it('case 3: tombstone then recreate with a new UID: the new copy is shown and the tombstone evicted', () => {
    const { overlay } = harness();
    overlay.recordDelete(key('a'), obj('a', { rv: '10' }));
    const recreated = obj('a', { rv: '15', uid: 'uid-new' });
    expect(overlay.resolve(key('a'), recreated)).toEqual({ object: recreated, source: 'cache' });
    expect(overlay.size().tombstones).toBe(0);
    expect(overlay.evictions().cache).toBe(1);
  });

  it('case 4: tombstone then our own recreate: the upsert replaces the tombstone', () => {
    const { overlay } = harness();
    overlay.recordDelete(key('a'), obj('a', { rv: '10' }));
    overlay.recordUpsert(key('a'), obj('a', { rv: '15', uid: 'uid-new' }));
    const got = overlay.resolve(key('a'), obj('a', { rv: '10' }));
    expect(got.object?.metadata.uid).toBe('uid-new');
    expect(overlay.size()).toEqual({ live: 1, tombstones: 0 });
  });

  it('case 5: finalizers: the delete response is recorded as an upsert, so readers see the deletionTimestamp', () => {
    const { overlay } = harness();
    const response = obj('a', { rv: '11', deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['example.io/cleanup'] });
    expect(survivesDelete(response)).toBe(true);
    overlay.recordUpsert(key('a'), response);
    const got = overlay.resolve(key('a'), obj('a', { rv: '10' }));
    expect(got.object?.metadata.deletionTimestamp).toBe('2026-01-01T00:00:00Z');
    overlay.observe(key('a'), { uid: 'uid-a', resourceVersion: '11' });
    expect(overlay.size().live).toBe(0);
  });

  it('case 6: delete by name only falls back to the recorded write, hiding the create the cache has not shown yet', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '5' }));
    overlay.recordDelete(key('a'), {});
    expect(overlay.entriesIn({ ...key('a') })[0]).toMatchObject({ deleted: true, uid: 'uid-a', resourceVersion: '5' });
    expect(overlay.resolve(key('a'), obj('a', { rv: '5' })).object).toBeUndefined();
  });

  it('case 7: a stale lastKnown does not lower the tombstone below our own newer write', () => {
    const { overlay } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '12' }));
    overlay.recordDelete(key('a'), { uid: 'uid-a', resourceVersion: '10' });
    overlay.observe(key('a'), { uid: 'uid-a', resourceVersion: '12' });
    expect(overlay.resolve(key('a'), obj('a', { rv: '12' })).object).toBeUndefined();
  });
});

describe('survivesDelete', () => {
  const cases = numbered([
    { name: 'finalizers pending', response: obj('a', { deletionTimestamp: 't', finalizers: ['f'] }), want: true },
    { name: 'graceful pod deletion', response: { metadata: { deletionTimestamp: 't', deletionGracePeriodSeconds: 30 } }, want: true },
    { name: 'gone: no deletionTimestamp', response: obj('a'), want: false },
    { name: 'gone: deletionTimestamp but nothing pending', response: obj('a', { deletionTimestamp: 't', finalizers: [] }), want: false },
    { name: 'a Status, not an object', response: { kind: 'Status', status: 'Success' }, want: false },
    { name: 'no body', response: undefined, want: false },
  ]);

  it.each(cases)('case $n: $name', ({ response, want }) => {
    expect(survivesDelete(response)).toBe(want);
  });
});

describe('Overlay TTL', () => {
  it('case 1: an expired entry is ignored and removed on read', () => {
    const { overlay, clock } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '12' }));
    clock.now = TTL - 1;
    expect(overlay.resolve(key('a'), obj('a', { rv: '10' })).source).toBe('overlay');
    clock.now = TTL;
    expect(rvOf(overlay.resolve(key('a'), obj('a', { rv: '10' })).object)).toBe('10');
    expect(overlay.size()).toEqual({ live: 0, tombstones: 0 });
    expect(overlay.evictions()).toEqual({ cache: 0, ttl: 1 });
  });

  it('case 2: an expired tombstone no longer hides', () => {
    const { overlay, clock } = harness();
    overlay.recordDelete(key('a'), obj('a'));
    clock.now = TTL + 5;
    expect(overlay.resolve(key('a'), obj('a')).source).toBe('cache');
  });

  it('case 3: sweep removes expired entries only and reports the count', () => {
    const { overlay, clock, changes } = harness();
    overlay.recordUpsert(key('a'), obj('a'));
    overlay.recordDelete(key('b'), obj('b'));
    clock.now = 600;
    overlay.recordUpsert(key('c'), obj('c'));
    clock.now = TTL;
    expect(overlay.sweep()).toBe(2);
    expect(overlay.size()).toEqual({ live: 1, tombstones: 0 });
    expect(overlay.sweep()).toBe(0);
    expect(overlay.evictions().ttl).toBe(2);
    expect(changes.at(-1)).toEqual({ live: 1, tombstones: 0 });
  });

  it('case 4: a new write resets the TTL', () => {
    const { overlay, clock } = harness();
    overlay.recordUpsert(key('a'), obj('a', { rv: '11' }));
    clock.now = 900;
    overlay.recordUpsert(key('a'), obj('a', { rv: '12' }));
    clock.now = 1500;
    expect(overlay.sweep()).toBe(0);
  });

  it('case 5: a TTL of zero or less means the 2 minute default', () => {
    const clock = { now: 0 };
    const overlay = new Overlay({ now: () => clock.now, ttlMs: 0 });
    overlay.recordUpsert(key('a'), obj('a'));
    clock.now = 119_999;
    expect(overlay.sweep()).toBe(0);
    clock.now = 120_000;
    expect(overlay.sweep()).toBe(1);
  });
});
