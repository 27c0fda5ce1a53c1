// Three cachegate processes (`npm start`) on one etcd, sharing their state as replicas do: one of
// them leads and runs the controllers; every one serves the same cache; when the leader is killed
// (kill -9) another takes over within its lease and goes on replicating.
//   case 1: exactly one replica leads (cachegate_leader), every one is ready, and the followers'
//           readiness names the leader
//   case 2: a CCR and 20 ConfigMaps created through a follower are replicated by the leader, and
//           every replica lists the 20 copies and reports the heap of its etcd client thread
//   case 3: read-your-writes with no token: 201 mixed writes (create, patch, delete) through the
//           REST facade of random replicas, each read at once through another (a plain GET,
//           consistent by default): 0 misses, 0 stale
//   case 4: kill -9 of the leader: another replica leads, and ConfigMaps created afterwards reach
//           every surviving replica's cache, the earlier copies all still there
//   case 5: the leader paused past its lease (SIGSTOP): the other replica leads and replicates
//           what is written meanwhile; resumed (SIGCONT), the old leader steps down, one leader
//           remains, and both caches hold exactly the source's ConfigMaps
//   case 6: a third replica joins; kill -9 of the leader during 600 mixed writes (create, patch,
//           delete): another leads, and once the writes stop every surviving replica's cache
//           equals the source exactly (name, resourceVersion and data of every ConfigMap)

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd } from '../../helpers/etcd-cluster.js';
import type { EtcdCluster } from '../../helpers/etcd-cluster.js';
import { eventually, request } from '../../helpers/kube-http.js';
import { freePort, startProcess, waitReady } from '../../helpers/process.js';
import type { Started } from '../../helpers/process.js';
import { writeThenRead } from '../../helpers/read-your-writes.js';
import { CCRS, cachedObjects, ccr } from '../../helpers/replication.js';

const LEASE_SECONDS = 2;
/** Generous: `npm start` compiles on the fly, and a loaded two-core machine is slow. */
const DEADLINE_MS = 120_000;
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

/** Replica is one running cachegate process. */
interface Replica {
  readonly url: string;
  readonly process: Started;
}

async function leaderFlag(replica: Replica): Promise<number> {
  return gauge(await (await fetch(`${replica.url}/metrics`)).text(), 'cachegate_leader');
}

/** gauge reads one series, named with its labels as /metrics writes them, from a /metrics text (NaN when absent). */
function gauge(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? NaN);
}

/** theLeader waits until exactly one of the replicas says it leads; if none does, it says what each one logged of the election. */
async function theLeader(replicas: readonly Replica[]): Promise<Replica> {
  try {
    return await eventually(async () => {
      const flags = await Promise.all(replicas.map(leaderFlag));
      expect(flags.filter((flag) => flag === 1)).toHaveLength(1);
      expect(flags.filter((flag) => flag === 0)).toHaveLength(replicas.length - 1);
      return replicas[flags.indexOf(1)] as Replica;
    }, DEADLINE_MS);
  } catch (err) {
    const logs = replicas.map((replica) => `${replica.url}:\n${electionLog(replica)}`).join('\n');
    throw new Error(`${(err as Error).message}\nelection log of each replica:\n${logs}`, { cause: err });
  }
}

/** electionLog is what a replica logged about the election and its etcd calls, last lines first kept. */
function electionLog(replica: Replica): string {
  const { stdout, stderr } = replica.process.output();
  const lines = `${stdout}\n${stderr}`.split('\n').filter((line) => /lead|follow|election|campaign|etcd|lease/i.test(line));
  return lines.slice(-15).join('\n');
}

/** lastLines is the end of what a replica logged, both streams. */
function lastLines(replica: Replica): string {
  const { stdout, stderr } = replica.process.output();
  return `${stdout}\n${stderr}`.trim().split('\n').slice(-30).join('\n');
}

async function copyNames(replica: Replica): Promise<string[]> {
  return (await cachedObjects(replica.url, '?labelSelector=replicated%3Dyes')).map((copy) => copy.spec.raw.metadata.name as string).sort();
}

function configMapNames(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}`).sort();
}

async function createConfigMaps(replica: Replica, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const res = await request('POST', `${replica.url}/clusters/root${CONFIGMAPS}`, { metadata: { name, labels: { replicated: 'yes' } } });
    expect(res.status).toBe(201);
  }
}

describe('three replicas on one etcd', () => {
  let etcd: EtcdCluster;
  let dir: string;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    etcd = await startEtcd({ members: 1 });
    dir = mkdtempSync(join(tmpdir(), 'cachegate-replicas-'));
    const config = join(dir, 'cachegate.json');
    writeFileSync(config, JSON.stringify({
      store: { backend: 'etcd', etcd: { endpoints: etcd.endpoints, prefix: '/replicas', compactIntervalMinutes: 0 } },
      ha: { leaseSeconds: LEASE_SECONDS },
      cache: { enabled: true, gvks: ['v1/ConfigMap'] },
    }));
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      replicas.push({ url: `http://127.0.0.1:${port}`, process: startProcess(['--port', String(port), '--config', config], { LOG_LEVEL: 'info' }) });
    }
    await Promise.all(replicas.map((replica) => waitReady(replica.process, replica.url, DEADLINE_MS)));
  }, 3 * DEADLINE_MS);

  afterAll(async () => {
    for (const replica of replicas) replica.process.killAll();
    await Promise.all(replicas.map((replica) => replica.process.exited));
    await etcd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('case 1: exactly one replica leads, every one is ready, and the followers name the leader', async () => {
    const leader = await theLeader(replicas);
    for (const replica of replicas) {
      const ready = await fetch(`${replica.url}/readyz?verbose`);
      expect(ready.status).toBe(200);
      const text = await ready.text();
      if (replica === leader) expect(text).toContain('[+]leader ok (this replica leads)');
      else expect(text).toContain(`[+]leader ok (follows ${(text.match(/follows ([^)]+)\)/) ?? [])[1] ?? '?'})`);
    }
    const named = await Promise.all(replicas.filter((r) => r !== leader).map(async (r) => ((await (await fetch(`${r.url}/readyz?verbose`)).text()).match(/follows ([^)]+)\)/) ?? [])[1]));
    expect(new Set(named).size).toBe(1);
    expect(named[0]).toMatch(/\/\d+$/);
  }, DEADLINE_MS);

  it('case 2: a CCR and 20 ConfigMaps created through a follower reach every replica\'s cache', async () => {
    const leader = await theLeader(replicas);
    const follower = replicas.find((replica) => replica !== leader) as Replica;
    expect((await request('POST', `${follower.url}/clusters/root${CCRS}`, ccr('configmaps', { group: '', version: 'v1', resource: 'configmaps' }, { replicated: 'yes' }))).status).toBe(201);
    const names = configMapNames('before', 20);
    await createConfigMaps(follower, names);
    for (const replica of replicas) await eventually(async () => expect(await copyNames(replica)).toEqual(names), DEADLINE_MS);
    // The client thread's heap is outside nodejs_heap_*; /metrics accounts for it.
    for (const replica of replicas) {
      const text = await (await fetch(`${replica.url}/metrics`)).text();
      const used = gauge(text, 'cachegate_storage_thread_heap_used_bytes{backend="etcd"}');
      expect(used).toBeGreaterThan(0);
      expect(gauge(text, 'cachegate_storage_thread_heap_total_bytes{backend="etcd"}')).toBeGreaterThanOrEqual(used);
    }
  }, 2 * DEADLINE_MS);

  it('case 3: 201 mixed writes through random replicas, each read at once through another: 0 misses, 0 stale', async () => {
    // Labelled as the CCR selects, so the writes are replicated while they are read; the last
    // round of each ConfigMap deletes it, so the later cases count what they did before.
    expect(await writeThenRead(replicas, 'ryw', 201, { replicated: 'yes' })).toEqual({ misses: [], stale: [] });
  }, 3 * DEADLINE_MS);

  it('case 4: kill -9 of the leader: another leads, and later ConfigMaps reach every surviving replica', async () => {
    const leader = await theLeader(replicas);
    leader.process.killAll();
    await leader.process.exited;
    const survivors = replicas.filter((replica) => replica !== leader);
    await theLeader(survivors);
    const names = [...configMapNames('before', 20), ...configMapNames('after', 10)].sort();
    await createConfigMaps(survivors[0] as Replica, configMapNames('after', 10));
    for (const replica of survivors) await eventually(async () => expect(await copyNames(replica)).toEqual(names), DEADLINE_MS);
  }, 3 * DEADLINE_MS);

  it('case 5: the leader paused past its lease: the other leads; resumed, it steps down and both caches are exact', async () => {
    const survivors = replicas.filter((replica) => replica.process.child.exitCode === null && replica.process.child.signalCode === null);
    expect(survivors).toHaveLength(2);
    const paused = await theLeader(survivors);
    const other = survivors.find((replica) => replica !== paused) as Replica;
    process.kill(paused.process.serverPid(), 'SIGSTOP');
    try {
      await eventually(async () => expect(await leaderFlag(other)).toBe(1), DEADLINE_MS);
      await createConfigMaps(other, configMapNames('paused', 10));
    } finally {
      process.kill(paused.process.serverPid(), 'SIGCONT');
    }
    expect(await theLeader(survivors)).toBe(other);
    const sourceNames = async (replica: Replica): Promise<string[]> => ((await request('GET', `${replica.url}/clusters/root${CONFIGMAPS}?labelSelector=replicated%3Dyes`)).body.items as Array<{ metadata: { name: string } }>).map((item) => item.metadata.name).sort();
    const expected = await sourceNames(other);
    expect(expected).toHaveLength(40);
    for (const replica of survivors) {
      await eventually(async () => {
        expect(await sourceNames(replica)).toEqual(expected);
        expect(await copyNames(replica)).toEqual(expected);
      }, DEADLINE_MS);
    }
  }, 3 * DEADLINE_MS);

  it('case 6: kill -9 of the leader during 600 mixed writes: every surviving cache equals the source exactly', async () => {
    const port = await freePort();
    const joined: Replica = { url: `http://127.0.0.1:${port}`, process: startProcess(['--port', String(port), '--config', join(dir, 'cachegate.json')], { LOG_LEVEL: 'info' }) };
    replicas.push(joined);
    await waitReady(joined.process, joined.url, DEADLINE_MS);
    const alive = replicas.filter((replica) => replica.process.child.exitCode === null && replica.process.child.signalCode === null);
    expect(alive).toHaveLength(3);
    const leader = await theLeader(alive);
    const survivors = alive.filter((replica) => replica !== leader);
    const writer = survivors[0] as Replica;
    for (let i = 0; i < 600; i++) {
      if (i === 200) leader.process.killAll();
      const name = `mixed-${Math.floor(i / 3)}`;
      const step = i % 3;
      // Every third ConfigMap is deleted; the others keep their last patch.
      const res = step === 0
        ? await request('POST', `${writer.url}/clusters/root${CONFIGMAPS}`, { metadata: { name, labels: { replicated: 'yes' } }, data: { round: String(i) } })
        : step === 1 || Math.floor(i / 3) % 3 !== 0
          ? await request('PATCH', `${writer.url}/clusters/root${CONFIGMAPS}/${name}`, { data: { round: String(i) } }, 'application/merge-patch+json')
          : await request('DELETE', `${writer.url}/clusters/root${CONFIGMAPS}/${name}`);
      // On a failure, the writer's last log lines say what it was doing (a shutdown, a lost etcd).
      if (res.status !== (step === 0 ? 201 : 200)) expect.fail(`write ${i}: ${JSON.stringify(res.body)}\nthe writer's last log lines:\n${lastLines(writer)}`);
    }
    await leader.process.exited;
    await theLeader(survivors);
    type Shape = { name: string; resourceVersion: string; data: unknown };
    const shape = (object: { metadata: { name: string; resourceVersion: string }; data?: unknown }): Shape => ({ name: object.metadata.name, resourceVersion: object.metadata.resourceVersion, data: object.data ?? {} });
    const byName = (a: Shape, b: Shape): number => a.name.localeCompare(b.name);
    const source = ((await request('GET', `${writer.url}/clusters/root${CONFIGMAPS}?labelSelector=replicated%3Dyes`)).body.items as Parameters<typeof shape>[0][]).map(shape).sort(byName);
    expect(source.filter((item) => item.name.startsWith('mixed-'))).toHaveLength(200 - 67);
    for (const replica of survivors) {
      await eventually(async () => {
        const copies = (await cachedObjects(replica.url, '?labelSelector=replicated%3Dyes')).map((copy) => shape(copy.spec.raw)).sort(byName);
        expect(copies).toEqual(source);
      }, DEADLINE_MS);
    }
  }, 4 * DEADLINE_MS);
});
