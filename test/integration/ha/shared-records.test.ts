// Shared records on a real etcd: two replicas' records (each its own backend and SharedRecords
// over one prefix), as the shared overlay uses them.
//   case 1: a record one replica publishes reaches the other, which a start later lists too
//   case 2: records expire by their etcd lease, with nobody left to delete them
//   case 3: remove takes a record away only while it is the version the remover saw last
//   case 4: a barrier moves the records' position (and the stores'), though no record changed

import { describe, expect, it } from 'vitest';
import { SharedRecords } from '../../../src/ha/shared-records.js';
import { openEtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import type { EtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import { eventually } from '../../helpers/kube-http.js';
import { suiteEtcd } from '../../helpers/suite-etcd.js';

const etcd = suiteEtcd();
const SPACE = '/overlay/';

interface Replica {
  readonly backend: EtcdBackend;
  readonly records: SharedRecords;
  readonly seen: Map<string, string>;
}

async function replica(prefix: string, ttlMs = 60_000): Promise<Replica> {
  const backend = await openEtcdBackend({ endpoints: etcd.cluster.endpoints, prefix, compactIntervalMs: 0 });
  const seen = new Map<string, string>();
  const records = new SharedRecords({ backend, space: SPACE, ttlMs, onRecord: (key, value) => seen.set(key, value) });
  await records.start();
  return { backend, records, seen };
}

async function close(...replicas: Replica[]): Promise<void> {
  for (const r of replicas) {
    await r.records.stop();
    await r.backend.close();
  }
}

describe('SharedRecords', () => {
  it('case 1: a record published by one replica reaches the other, and a later start lists it', async () => {
    const [a, b] = [await replica('/records-1'), await replica('/records-1')];
    const revision = await a.records.publish('s/root/core/configmaps/default/x', '{"n":1}');
    await b.records.position.reach(revision, 60_000);
    expect(b.seen.get('s/root/core/configmaps/default/x')).toBe('{"n":1}');
    const late = await replica('/records-1');
    expect(late.seen.get('s/root/core/configmaps/default/x')).toBe('{"n":1}');
    await close(a, b, late);
  });

  it('case 2: a record expires by its lease', async () => {
    const a = await replica('/records-2', 1000);
    await a.records.publish('k', 'v');
    const key = '/records-2/overlay/k';
    const stored = await etcd.raw.get(key).exec();
    expect(Number(stored.kvs[0]?.lease)).toBeGreaterThan(0);
    // TTL 1 s plus the 5 s a lease is shared for; etcd may take a little longer to revoke it.
    await eventually(async () => expect(await etcd.raw.get(key).string()).toBeNull(), 60_000);
    await close(a);
  });

  it('case 3: remove takes only the version the remover saw last', async () => {
    const [a, b] = [await replica('/records-3'), await replica('/records-3')];
    await b.records.position.reach(await a.records.publish('k', 'first'), 60_000);
    // b stops following, so the newer version is one it has not seen: its removal must leave it
    await b.records.stop();
    await a.records.publish('k', 'second');
    await b.records.remove('k');
    expect(await etcd.raw.get('/records-3/overlay/k').string()).toBe('second');
    const c = await replica('/records-3');
    await c.records.remove('k');
    expect(await etcd.raw.get('/records-3/overlay/k').string()).toBeNull();
    await close(a, b, c);
  });

  it('case 4: a barrier moves the records\' position though no record changed', async () => {
    const a = await replica('/records-4');
    await etcd.raw.put('/records-4-elsewhere').value('moves the revision').exec();
    const target = await a.backend.currentRevision();
    expect(a.records.position.revision()).toBeLessThan(target);
    const barrier = await a.backend.barrier();
    expect(barrier).toBeGreaterThan(target);
    await a.records.position.reach(barrier, 60_000);
    expect(a.records.position.revision()).toBeGreaterThanOrEqual(barrier);
    expect(a.seen.size).toBe(0);
    expect((await a.backend.list(SPACE)).entries).toEqual([]);
    await close(a);
  });
});
