// The behaviour every Backend must have, as one reusable vitest suite. A backend's own test file
// calls describeBackendConformance with a way to open it; every case writes under a prefix of its
// own, so `open` may hand out a new client of one shared server as well as a fresh instance.
//   case 1: create holds only while the key is absent; a second create says the current revision
//   case 2: update holds only at the expected revision; a wrong or absent one says the current
//   case 3: delete holds only at the expected revision; a deleted key can be created again
//   case 4: 2,000 concurrent creates and 50 racing updates of one key: every create holds, later commits get later revisions, one racer wins
//   case 5: list reads at one revision, in key order, with modRevisions, and only under its prefix
//   case 6: a feed from a past revision replays what followed, then follows live changes, deletes included
//   case 7: during 2,000 concurrent commits a feed sees exactly the committed revisions, in order
//   case 8: a feed sees only its prefix (`/a/` never sees `/ab/x`)
//   case 9: a stopped feed gets no further handler call
//   case 10: a feed from the current revision replays nothing
//   case 11: values round-trip: unicode, and 1 MB through commit, list and feed
//   case 12: currentRevision is at least every revision a commit or list returned
//   case 13: a prefix covers keys that go on with any character, listed in code point (UTF-8 byte) order
//   case 14: a list of several pages during concurrent commits is one moment: exactly the commits at or below its revision

import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Backend, BackendOp, OpResult } from '../../../src/storage/backend.js';
import { FeedRecorder } from '../../helpers/feed-recorder.js';

const CONCURRENT_COMMITS = 2_000;

/** describeBackendConformance defines the cases every Backend must pass; cleanup defaults to close(). */
export function describeBackendConformance(
  name: string,
  open: () => Promise<Backend>,
  cleanup: (backend: Backend) => Promise<void> = (backend) => backend.close(),
): void {
  describe(`${name} backend conformance`, () => {
    const opened: Backend[] = [];
    let base = '';
    const backend = async (): Promise<Backend> => {
      const instance = await open();
      opened.push(instance);
      return instance;
    };

    afterEach(async () => {
      for (const instance of opened.splice(0)) await cleanup(instance);
    });
    // A prefix per case: `base` is fresh for every test.
    const key = (path: string): string => `${base}${path}`;
    const fresh = (): void => {
      base = `/conformance-${randomUUID().slice(0, 8)}`;
    };

    it('case 1: create holds only while the key is absent; a second create says the current revision', async () => {
      fresh();
      const store = await backend();
      const first = await committed(store, { kind: 'create', key: key('/k'), value: '{"v":1}' });
      const again = await store.commit({ kind: 'create', key: key('/k'), value: '{"v":2}' });
      expect(again).toMatchObject({ ok: false, current: first });
      expect(again.revision).toBeGreaterThanOrEqual(first);
      expect((await store.list(key('/'))).entries).toEqual([{ key: key('/k'), value: '{"v":1}', modRevision: first }]);
    });

    it('case 2: update holds only at the expected revision; a wrong or absent one says the current', async () => {
      fresh();
      const store = await backend();
      const created = await committed(store, { kind: 'create', key: key('/k'), value: 'a' });
      const updated = await committed(store, { kind: 'update', key: key('/k'), value: 'b', expected: created });
      expect(updated).toBeGreaterThan(created);
      expect(await store.commit({ kind: 'update', key: key('/k'), value: 'c', expected: created })).toMatchObject({ ok: false, current: updated });
      expect(await store.commit({ kind: 'update', key: key('/absent'), value: 'c', expected: created })).toMatchObject({ ok: false, current: 0 });
      expect((await store.list(key('/'))).entries).toEqual([{ key: key('/k'), value: 'b', modRevision: updated }]);
    });

    it('case 3: delete holds only at the expected revision; a deleted key can be created again', async () => {
      fresh();
      const store = await backend();
      const created = await committed(store, { kind: 'create', key: key('/k'), value: 'a' });
      expect(await store.commit({ kind: 'delete', key: key('/k'), expected: created + 1000 })).toMatchObject({ ok: false, current: created });
      const deleted = await committed(store, { kind: 'delete', key: key('/k'), expected: created });
      expect(deleted).toBeGreaterThan(created);
      expect(await store.commit({ kind: 'delete', key: key('/k'), expected: created })).toMatchObject({ ok: false, current: 0 });
      expect((await store.list(key('/'))).entries).toEqual([]);
      expect(await committed(store, { kind: 'create', key: key('/k'), value: 'again' })).toBeGreaterThan(deleted);
    });

    it('case 4: 2,000 concurrent creates and 50 racing updates of one key: every create holds, later commits get later revisions, one racer wins', async () => {
      fresh();
      const store = await backend();
      const revisions = await Promise.all(range(CONCURRENT_COMMITS).map((i) => committed(store, { kind: 'create', key: key(`/c/${i}`), value: `${i}` })));
      // Concurrent commits may share a revision (a backend may apply them in one transaction).
      expect(revisions).toHaveLength(CONCURRENT_COMMITS);
      expect(Math.min(...revisions)).toBeGreaterThan(0);
      const sequential: number[] = [];
      for (let i = 0; i < 20; i++) sequential.push(await committed(store, { kind: 'create', key: key(`/s/${i}`), value: 'x' }));
      expect(sequential).toEqual([...sequential].sort((a, b) => a - b));
      expect(sequential[0]).toBeGreaterThan(Math.max(...revisions));
      const expected = revisions[0]!;
      const racers = await Promise.all(range(50).map((i) => store.commit({ kind: 'update', key: key('/c/0'), value: `racer ${i}`, expected })));
      const winners = racers.filter((result) => result.ok);
      expect(winners).toHaveLength(1);
      const losers = racers.filter((result): result is Extract<OpResult, { ok: false }> => !result.ok);
      for (const loser of losers) expect(loser.current).toBe(winners[0]!.revision);
    });

    it('case 5: list reads at one revision, in key order, with modRevisions, and only under its prefix', async () => {
      fresh();
      const store = await backend();
      const written = new Map<string, number>();
      for (const path of ['/a/3', '/a/1', '/a/2/x', '/ab/x', '/a', '/b/1']) {
        written.set(key(path), await committed(store, { kind: 'create', key: key(path), value: `value of ${path}` }));
      }
      const listed = await store.list(key('/a/'));
      expect(listed.entries.map((entry) => entry.key)).toEqual([key('/a/1'), key('/a/2/x'), key('/a/3')]);
      for (const entry of listed.entries) {
        expect(entry.modRevision).toBe(written.get(entry.key));
        expect(entry.value).toBe(`value of ${entry.key.slice(base.length)}`);
      }
      expect(listed.revision).toBeGreaterThanOrEqual(Math.max(...written.values()));
      expect((await store.list(key('/nothing/'))).entries).toEqual([]);
      expect((await store.list(key('/'))).entries).toHaveLength(written.size);
    });

    it('case 6: a feed from a past revision replays what followed, then follows live changes, deletes included', async () => {
      fresh();
      const store = await backend();
      const start = await committed(store, { kind: 'create', key: key('/w/0'), value: '0' });
      const past = [
        await committed(store, { kind: 'create', key: key('/w/1'), value: '1' }),
        await committed(store, { kind: 'update', key: key('/w/0'), value: '0b', expected: start }),
      ];
      const feed = new FeedRecorder();
      const running = store.watch(key('/w/'), start, feed.handlers);
      const deleted = await committed(store, { kind: 'delete', key: key('/w/1'), expected: past[0]! });
      await feed.reached(deleted);
      await running.stop();
      expect(feed.changes).toEqual([
        { type: 'put', key: key('/w/1'), value: '1', revision: past[0] },
        { type: 'put', key: key('/w/0'), value: '0b', revision: past[1] },
        { type: 'delete', key: key('/w/1'), revision: deleted },
      ]);
      expect(feed.compactions).toBe(0);
    });

    it('case 7: during 2,000 concurrent commits a feed sees exactly the committed revisions, in order', async () => {
      fresh();
      const store = await backend();
      const start = await store.currentRevision();
      const live = new FeedRecorder();
      const liveFeed = store.watch(key('/'), start, live.handlers);
      const results = (await Promise.all(range(CONCURRENT_COMMITS).map((i) => concurrentOps(store, key, i)))).flat();
      const revisions = results.filter((result) => result.ok).map((result) => result.revision);
      const last = Math.max(...revisions);
      const late = new FeedRecorder();
      const lateFeed = store.watch(key('/'), start, late.handlers);
      await live.reached(last);
      await late.reached(last);
      await Promise.all([liveFeed.stop(), lateFeed.stop()]);
      const sorted = [...revisions].sort((a, b) => a - b);
      expect(live.revisions()).toEqual(sorted);
      expect(late.revisions()).toEqual(sorted);
    });

    it('case 8: a feed sees only its prefix (`/a/` never sees `/ab/x`)', async () => {
      fresh();
      const store = await backend();
      const feed = new FeedRecorder();
      const running = store.watch(key('/a/'), await store.currentRevision(), feed.handlers);
      await committed(store, { kind: 'create', key: key('/ab/x'), value: 'no' });
      await committed(store, { kind: 'create', key: key('/a'), value: 'no' });
      const mine = await committed(store, { kind: 'create', key: key('/a/x'), value: 'yes' });
      await feed.reached(mine);
      await running.stop();
      expect(feed.changes.map((change) => change.key)).toEqual([key('/a/x')]);
    });

    it('case 9: a stopped feed gets no further handler call', async () => {
      fresh();
      const store = await backend();
      const stopped = new FeedRecorder();
      const control = new FeedRecorder();
      const stoppedFeed = store.watch(key('/'), await store.currentRevision(), stopped.handlers);
      const controlFeed = store.watch(key('/'), await store.currentRevision(), control.handlers);
      await stopped.reached(await committed(store, { kind: 'create', key: key('/before'), value: 'x' }));
      await stoppedFeed.stop();
      const calls = stopped.calls;
      const after = await Promise.all(range(50).map((i) => committed(store, { kind: 'create', key: key(`/after/${i}`), value: 'x' })));
      await control.reached(Math.max(...after));
      await controlFeed.stop();
      expect(stopped.calls).toBe(calls);
      expect(stopped.compactions).toBe(0);
    });

    it('case 10: a feed from the current revision replays nothing', async () => {
      fresh();
      const store = await backend();
      await committed(store, { kind: 'create', key: key('/old'), value: 'x' });
      const feed = new FeedRecorder();
      const running = store.watch(key('/'), await store.currentRevision(), feed.handlers);
      const next = await committed(store, { kind: 'create', key: key('/new'), value: 'y' });
      await feed.reached(next);
      await running.stop();
      expect(feed.changes).toEqual([{ type: 'put', key: key('/new'), value: 'y', revision: next }]);
    });

    it('case 11: values round-trip: unicode, and 1 MB through commit, list and feed', async () => {
      fresh();
      const store = await backend();
      const unicode = JSON.stringify({ text: 'Grüße, 東京, Ελληνικά, עברית, 👩🏽‍💻🇺🇦, e\u0301, \u2028', escaped: '"\\\n\t' });
      const large = JSON.stringify({ data: 'x'.repeat(1024 * 1024 - 64), end: 'ü' });
      const feed = new FeedRecorder();
      const running = store.watch(key('/'), await store.currentRevision(), feed.handlers);
      await committed(store, { kind: 'create', key: key('/unicode-ключ'), value: unicode });
      const last = await committed(store, { kind: 'create', key: key('/large'), value: large });
      await feed.reached(last);
      await running.stop();
      const values = new Map((await store.list(key('/'))).entries.map((entry) => [entry.key, entry.value]));
      expect(values.get(key('/unicode-ключ'))).toBe(unicode);
      expect(values.get(key('/large')) === large).toBe(true);
      expect(feed.changes.map((change) => change.value === unicode || change.value === large)).toEqual([true, true]);
    });

    it('case 12: currentRevision is at least every revision a commit or list returned', async () => {
      fresh();
      const store = await backend();
      const revisions = await Promise.all(range(100).map((i) => committed(store, { kind: 'create', key: key(`/r/${i}`), value: 'x' })));
      const refused = await store.commit({ kind: 'create', key: key('/r/0'), value: 'x' });
      const listed = await store.list(key('/r/'));
      const current = await store.currentRevision();
      expect(current).toBeGreaterThanOrEqual(Math.max(...revisions, refused.revision, listed.revision));
      expect(listed.revision).toBeGreaterThanOrEqual(Math.max(...revisions));
    });

    it('case 13: a prefix covers keys that go on with any character, listed in code point (UTF-8 byte) order', async () => {
      fresh();
      const store = await backend();
      const feed = new FeedRecorder();
      const running = store.watch(key('/u/'), await store.currentRevision(), feed.handlers);
      // In code point order; JavaScript's default sort (UTF-16 units) would put the emoji before U+FFFF.
      const inside = ['/u/', '/u/a', '/u/é', '/u/\uffff', '/u/😀', '/u/😀/x'].map(key);
      const outside = ['/u', '/u0', '/v/', '/t/'].map(key);
      let last = 0;
      for (const path of [...outside, ...[...inside].reverse()]) last = await committed(store, { kind: 'create', key: path, value: path });
      expect((await store.list(key('/u/'))).entries.map((entry) => entry.key)).toEqual(inside);
      await feed.reached(last);
      await running.stop();
      expect(feed.changes.map((change) => change.key)).toEqual([...inside].reverse());
    });

    it('case 14: a list of several pages during concurrent commits is one moment: exactly the commits at or below its revision', async () => {
      fresh();
      const store = await backend();
      const before = await Promise.all(range(3_000).map((i) => committed(store, { kind: 'create', key: key(`/m/${String(i).padStart(5, '0')}`), value: 'x'.repeat(200) })));
      // Submitted as the list starts, under keys in its first page: each lands wholly before or
      // wholly after the list's moment, never after its first page was read but within its revision.
      const during = range(300).map(async (i) => [key(`/m/0-late-${i}`), await committed(store, { kind: 'create', key: key(`/m/0-late-${i}`), value: 'y' })] as const);
      const listed = await store.list(key('/m/'));
      const late = await Promise.all(during);
      const expected = [...before.map((_, i) => key(`/m/${String(i).padStart(5, '0')}`)), ...late.filter(([, revision]) => revision <= listed.revision).map(([path]) => path)];
      expect(listed.entries.map((entry) => entry.key).sort()).toEqual(expected.sort());
      for (const entry of listed.entries) expect(entry.modRevision).toBeLessThanOrEqual(listed.revision);
    });
  });
}

/** committed commits op, asserts it held and returns its revision. */
async function committed(store: Backend, op: BackendOp): Promise<number> {
  const result = await store.commit(op);
  if (!result.ok) throw new Error(`${op.kind} of ${op.key} did not hold: current ${result.current}`);
  return result.revision;
}

/** concurrentOps are the i-th writer's ops in a burst: mostly a create, now and then a create and its delete, or an update that fails. */
async function concurrentOps(store: Backend, key: (path: string) => string, i: number): Promise<OpResult[]> {
  const path = key(`/burst/${i}`);
  if (i % 10 === 9) return [await store.commit({ kind: 'update', key: path, value: 'absent', expected: 1 })];
  const created = await store.commit({ kind: 'create', key: path, value: `{"i":${i}}` });
  if (i % 10 !== 5 || !created.ok) return [created];
  return [created, await store.commit({ kind: 'delete', key: path, expected: created.revision })];
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i);
}
