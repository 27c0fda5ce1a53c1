// The etcd backend against a real etcd 3.4 (one member on loopback ports, temporary data dir):
// the conformance suite every backend passes, then what is particular to etcd.
//   case 1: keys land under the prefix in etcd and come back without it; the compaction key is reserved
//   case 2: two backends with different prefixes on one etcd do not see each other
//   case 3: a feed from a compacted revision gets compacted() once and nothing else
//   case 4: the compactor compacts etcd to the revision of its previous tick
//   case 5: backends sharing a prefix compact in turns, and one on another prefix compacts too, without error
//   case 6: a feed catching up across a member restart delivers every revision once
//   case 7: TLS files that cannot be read are a StorageOpenError naming the file
//   case 8: with no member reachable, open succeeds, calls reject ServiceUnavailable and health says so
//   case 9: all members stopped (SIGSTOP): commits and lists reject ServiceUnavailable, health turns
//           not ok; after SIGCONT it recovers and the feed goes on with no gap and no repeat
// The conformance suite and cases 8 and 9 run twice: with the client on the main thread, and with
// commits, lists and feeds on a client in a worker thread (what the app runs).
//   case 11: commits that arrive together share one transaction (and its revision); each holds
//   case 12: a group with a failing condition is committed again one by one: the others hold
//   case 14: a list of several pages through a reader (pages are read ahead while one is read)

import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError, isAppError } from '../../../src/errors.js';
import type { BackendOp } from '../../../src/storage/backend.js';
import { openEtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import { LIST_PAGE_SIZE } from '../../../src/storage/etcd/etcd-list.js';
import type { EtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import type { EtcdBackendOptions } from '../../../src/storage/etcd/etcd-backend-options.js';
import { StorageOpenError } from '../../../src/storage/storage-open-error.js';
import { startEtcd } from '../../helpers/etcd-cluster.js';
import type { EtcdCluster } from '../../helpers/etcd-cluster.js';
import { FeedRecorder } from '../../helpers/feed-recorder.js';
import { suiteEtcd } from '../../helpers/suite-etcd.js';
import { eventually } from '../../helpers/kube-http.js';
import { freePort } from '../../helpers/process.js';
import { describeBackendConformance } from './backend-conformance.js';

const etcd = suiteEtcd();
const opened: EtcdBackend[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((backend) => backend.close()));
});

/** open opens a backend on the shared cluster (by default on a prefix of its own) and closes it after the test. */
async function open(options: Partial<EtcdBackendOptions> = {}): Promise<EtcdBackend> {
  const backend = await openEtcdBackend({ endpoints: etcd.cluster.endpoints, prefix: freshPrefix(), compactIntervalMs: 0, ...options });
  opened.push(backend);
  return backend;
}

function freshPrefix(): string {
  return `/test-${randomUUID().slice(0, 8)}`;
}

async function committed(backend: EtcdBackend, op: BackendOp): Promise<number> {
  const result = await backend.commit(op);
  if (!result.ok) throw new Error(`${op.kind} of ${op.key} did not hold: current ${result.current}`);
  return result.revision;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => new Error('expected a rejection'), (err: unknown) => err);
}

describeBackendConformance('etcd', () => openEtcdBackend({ endpoints: etcd.cluster.endpoints, prefix: '/conformance', compactIntervalMs: 0 }));
describeBackendConformance('etcd, client in a thread', () => openEtcdBackend({ endpoints: etcd.cluster.endpoints, prefix: '/conformance-thread', compactIntervalMs: 0, clientThread: true }));

describe('etcd backend', () => {
  it('case 1: keys land under the prefix in etcd and come back without it; the compaction key is reserved', async () => {
    const prefix = freshPrefix();
    const backend = await open({ prefix: `${prefix}/` });
    const revision = await committed(backend, { kind: 'create', key: '/pods/a', value: '{"a":1}' });
    expect(await etcd.raw.get(`${prefix}/pods/a`).string()).toBe('{"a":1}');
    expect(await etcd.raw.getAll().prefix(`${prefix}/`).keys()).toEqual([`${prefix}/pods/a`]);
    expect((await backend.list('/')).entries).toEqual([{ key: '/pods/a', value: '{"a":1}', modRevision: revision }]);
    const refused = await rejection(backend.commit({ kind: 'create', key: '/compact_rev_key', value: '1' }));
    expect(isAppError(refused, 'Invalid')).toBe(true);
  });

  it('case 2: two backends with different prefixes on one etcd do not see each other', async () => {
    const [one, two] = [await open(), await open()];
    const oneFeed = new FeedRecorder();
    const twoFeed = new FeedRecorder();
    one.watch('/', await one.currentRevision(), oneFeed.handlers);
    two.watch('/', await two.currentRevision(), twoFeed.handlers);
    const oneRevision = await committed(one, { kind: 'create', key: '/k', value: 'one' });
    const twoRevision = await committed(two, { kind: 'create', key: '/k', value: 'two' });
    expect(await one.commit({ kind: 'update', key: '/k', value: 'x', expected: twoRevision })).toMatchObject({ ok: false, current: oneRevision });
    await oneFeed.reached(oneRevision);
    await twoFeed.reached(twoRevision);
    expect((await one.list('/')).entries.map((entry) => entry.value)).toEqual(['one']);
    expect((await two.list('/')).entries.map((entry) => entry.value)).toEqual(['two']);
    const lastOfBoth = await committed(one, { kind: 'create', key: '/after', value: 'one' });
    await oneFeed.reached(lastOfBoth);
    expect(oneFeed.changes.map((change) => change.value)).toEqual(['one', 'one']);
    expect(twoFeed.changes.map((change) => change.value)).toEqual(['two']);
  });

  it('case 3: a feed from a compacted revision gets compacted() once and nothing else', async () => {
    const backend = await open();
    const old = await committed(backend, { kind: 'create', key: '/old', value: 'x' });
    await committed(backend, { kind: 'create', key: '/newer', value: 'y' });
    await etcd.raw.kv.compact({ revision: await backend.currentRevision() });
    const feed = new FeedRecorder();
    backend.watch('/', old - 1, feed.handlers);
    await feed.compacted();
    await committed(backend, { kind: 'create', key: '/later', value: 'z' });
    // A live feed on the same prefix sees the next commit: by then the ended feed would have too.
    const control = new FeedRecorder();
    backend.watch('/', await backend.currentRevision(), control.handlers);
    await control.reached(await committed(backend, { kind: 'create', key: '/last', value: 'z' }));
    expect(feed.compactions).toBe(1);
    expect(feed.calls).toBe(0);
  });

  it('case 4: the compactor compacts etcd to the revision of its previous tick', async () => {
    const backend = await open({ compactIntervalMs: 100 });
    const prefix = freshPrefix();
    await etcd.raw.put(`${prefix}/old`).value('v1');
    const oldRevision = Number((await etcd.raw.kv.range({ key: Buffer.from(`${prefix}/old`) })).kvs[0]!.mod_revision);
    await etcd.raw.put(`${prefix}/old`).value('v2');
    await eventually(() => expect(backend.compaction().revision).toBeGreaterThan(oldRevision));
    const err = await rejection(etcd.raw.kv.range({ key: Buffer.from(`${prefix}/old`), revision: oldRevision }));
    expect(String(err)).toContain('required revision has been compacted');
    expect(backend.compaction().error).toBeUndefined();
  });

  it('case 5: backends sharing a prefix compact in turns, and one on another prefix compacts too, without error', async () => {
    const shared = freshPrefix();
    const backends = [
      await open({ prefix: shared, compactIntervalMs: 100 }),
      await open({ prefix: shared, compactIntervalMs: 100 }),
      await open({ compactIntervalMs: 150 }),
    ];
    const start = await backends[0]!.currentRevision();
    for (let i = 0; i < 20; i++) await committed(backends[i % 3]!, { kind: 'create', key: `/k${i}`, value: 'x' });
    await eventually(() => {
      for (const backend of backends) expect(backend.compaction().revision).toBeGreaterThan(start);
    });
    for (const backend of backends) expect(backend.compaction().error).toBeUndefined();
    const versions = (await etcd.raw.getAll().prefix(`${shared}/compact_rev_key`).exec()).kvs.map((kv) => Number(kv.version));
    expect(versions).toHaveLength(1);
  });

  it('case 11: commits that arrive together go out as one transaction: they share a revision, each holds, the feed brings each once', async () => {
    const backend = await open();
    const feed = new FeedRecorder();
    backend.watch('/g/', await backend.currentRevision(), feed.handlers);
    const revisions = await Promise.all(Array.from({ length: 40 }, (_, i) => committed(backend, { kind: 'create', key: `/g/${i}`, value: `${i}` })));
    expect(new Set(revisions).size).toBeLessThan(revisions.length);
    await feed.reached(Math.max(...revisions));
    expect(feed.changes.map((change) => change.key).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `/g/${i}`).sort());
    const listed = await backend.list('/g/');
    expect(new Map(listed.entries.map((e) => [e.key, e.modRevision]))).toEqual(new Map(revisions.map((rv, i) => [`/g/${i}`, rv])));
  });

  it('case 12: in a group where one condition fails, the others hold and the failed commit says the current revision', async () => {
    const backend = await open();
    const taken = await committed(backend, { kind: 'create', key: '/h/taken', value: 'first' });
    const results = await Promise.all([
      backend.commit({ kind: 'create', key: '/h/a', value: 'a' }),
      backend.commit({ kind: 'create', key: '/h/taken', value: 'second' }),
      backend.commit({ kind: 'create', key: '/h/b', value: 'b' }),
    ]);
    expect(results[0]).toMatchObject({ ok: true });
    expect(results[1]).toMatchObject({ ok: false, current: taken });
    expect(results[2]).toMatchObject({ ok: true });
    const listed = await backend.list('/h/');
    expect(listed.entries.map((e) => `${e.key}=${e.value}`)).toEqual(['/h/a=a', '/h/b=b', '/h/taken=first']);
  });

  it('case 14: a list longer than one page, read through a reader, holds every kept entry once, in key order, at one revision', async () => {
    const backend = await open();
    const count = 2 * LIST_PAGE_SIZE + 17;
    const key = (i: number): string => `/p/${String(i).padStart(6, '0')}`;
    for (let from = 0; from < count; from += 1000) {
      await Promise.all(Array.from({ length: Math.min(1000, count - from) }, (_, j) => committed(backend, { kind: 'create', key: key(from + j), value: `${from + j}` })));
    }
    const revision = await backend.currentRevision();
    let read = 0;
    const listed = await backend.list('/p/', (entry) => {
      read++;
      return Number(entry.value) % 3 === 0 ? undefined : { key: entry.key, n: Number(entry.value) };
    });
    expect(read).toBe(count);
    expect(listed.revision).toBe(revision);
    const kept = Array.from({ length: count }, (_, i) => i).filter((i) => i % 3 !== 0);
    expect(listed.entries).toEqual(kept.map((i) => ({ key: key(i), n: i })));
  });

  describe('on a cluster of its own', () => {
    let own: EtcdCluster;
    beforeAll(async () => {
      own = await startEtcd({ members: 1 });
    });
    afterAll(async () => {
      await own?.stop();
    });

    it('case 6: a feed catching up across a member restart delivers every revision once', async () => {
      const backend = await open({ endpoints: own.endpoints });
      const start = await backend.currentRevision();
      const revisions: number[] = [];
      for (let batch = 0; batch < 50; batch++) {
        const ops = Array.from({ length: 200 }, (_, i) => committed(backend, { kind: 'create', key: `/r/${batch}-${i}`, value: 'x'.repeat(700) }));
        revisions.push(...(await Promise.all(ops)));
      }
      let killed = false;
      const feed = new FeedRecorder();
      backend.watch('/r/', start, {
        changes: (changes) => {
          feed.handlers.changes(changes);
          // Break the stream while etcd is still sending the backlog.
          if (!killed) process.kill(own.members[0]!.pid, 'SIGKILL');
          killed = true;
        },
        compacted: feed.handlers.compacted,
      });
      await eventually(() => expect(killed).toBe(true));
      await own.members[0]!.restart();
      await feed.reached(Math.max(...revisions));
      expect(feed.revisions()).toEqual([...revisions].sort((a, b) => a - b));
    });

    it.each([
      { clientThread: false },
      { clientThread: true },
    ])('case 9: all members stopped (SIGSTOP): calls reject ServiceUnavailable; after SIGCONT the feed goes on with no gap and no repeat (client in a thread: $clientThread)', async ({ clientThread }) => {
      const backend = await open({ endpoints: own.endpoints, requestTimeoutMs: 2_000, dialTimeoutMs: 1_000, clientThread });
      const feed = new FeedRecorder();
      backend.watch('/s/', await backend.currentRevision(), feed.handlers);
      const before = await committed(backend, { kind: 'create', key: '/s/before', value: 'x' });
      await feed.reached(before);

      await own.members[0]!.kill('SIGSTOP');
      try {
        const refused = await rejection(backend.commit({ kind: 'create', key: '/s/during', value: 'x' }));
        expect(refused).toBeInstanceOf(AppError);
        expect(refused).toMatchObject({ code: 'ServiceUnavailable', message: expect.stringMatching(/^etcd: /) });
        expect(await rejection(backend.list('/s/'))).toMatchObject({ code: 'ServiceUnavailable' });
        await eventually(() => expect(backend.health()).toMatchObject({ ok: false, message: expect.stringMatching(/^etcd: no endpoint answers/) }));
      } finally {
        await own.members[0]!.kill('SIGCONT');
      }

      await eventually(() => expect(backend.health()).toEqual({ ok: true }));
      const after = await Promise.all(Array.from({ length: 100 }, (_, i) => committed(backend, { kind: 'create', key: `/s/after-${i}`, value: 'x' })));
      await feed.reached(Math.max(...after));
      const delivered = feed.revisions();
      // In order, and no change twice (concurrent creates may share a revision: one transaction).
      expect(delivered).toEqual([...delivered].sort((a, b) => a - b));
      const keys = feed.changes.map((change) => change.key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(delivered).toEqual(expect.arrayContaining([before, ...after]));
      // The refused create may still have been applied once etcd woke up: it is the only other change allowed.
      const others = feed.changes.filter((change) => change.revision !== before && !after.includes(change.revision));
      expect(others.map((change) => change.key)).toEqual(others.length === 0 ? [] : ['/s/during']);
    });
  });

  describe('on a TLS cluster', () => {
    let secure: EtcdCluster;
    beforeAll(async () => {
      secure = await startEtcd({ members: 1, tls: true });
    });
    afterAll(async () => {
      await secure?.stop();
    });

    it('case 10: over TLS with a client certificate it commits, lists and follows; without one, etcd refuses it', async () => {
      const backend = await open({ endpoints: secure.endpoints, tls: secure.tls! });
      expect(backend.health()).toEqual({ ok: true });
      const feed = new FeedRecorder();
      backend.watch('/', await backend.currentRevision(), feed.handlers);
      const revision = await committed(backend, { kind: 'create', key: '/secret', value: 'x' });
      expect((await backend.list('/')).entries).toEqual([{ key: '/secret', value: 'x', modRevision: revision }]);
      await feed.reached(revision);

      const anonymous = await open({ endpoints: secure.endpoints, tls: { ca: secure.tls!.ca }, requestTimeoutMs: 1_000, dialTimeoutMs: 500 });
      expect(anonymous.health().ok).toBe(false);
      expect(await rejection(anonymous.commit({ kind: 'create', key: '/k', value: 'x' }))).toMatchObject({ code: 'ServiceUnavailable' });
    });
  });

  it('case 7: TLS files that cannot be read are a StorageOpenError naming the file', async () => {
    const missing = `/nonexistent-${randomUUID()}/ca.pem`;
    const err = await rejection(openEtcdBackend({ endpoints: ['https://127.0.0.1:2379'], tls: { ca: missing } }));
    expect(err).toBeInstanceOf(StorageOpenError);
    expect((err as Error).message).toContain(missing);
    const directory = await rejection(openEtcdBackend({ endpoints: ['https://127.0.0.1:2379'], tls: { cert: '/', key: '/' } }));
    expect(directory).toBeInstanceOf(StorageOpenError);
    expect((directory as Error).message).toContain('file /');
  });

  it.each([
    { clientThread: false },
    { clientThread: true },
  ])('case 8: with no member reachable, open succeeds, calls reject ServiceUnavailable and health says so (client in a thread: $clientThread)', async ({ clientThread }) => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const backend = await open({ endpoints: [endpoint], requestTimeoutMs: 1_000, dialTimeoutMs: 500, clientThread });
    expect(backend.health()).toMatchObject({ ok: false, message: expect.stringContaining(endpoint) });
    expect(await rejection(backend.commit({ kind: 'create', key: '/k', value: 'x' }))).toMatchObject({ code: 'ServiceUnavailable' });
    expect(await rejection(backend.currentRevision())).toMatchObject({ code: 'ServiceUnavailable' });
  });
});
