// Leader election and fencing on a real etcd 3.4 (one member on loopback ports), with candidates
// that each have their own etcd backend, as replicas do:
//   case 1: of three candidates exactly one leads, and all three name the same leader
//   case 2: the leader resigns: another candidate leads, and only one
//   case 3: a leader whose lease ends behind its back (what a pause past the lease does): its fenced
//           commits are refused and write nothing, another candidate leads, and it learns it lost
//   case 4: a candidate that does not lead cannot commit under the fenced prefix; elsewhere it can
//   case 5: the leader's bursts of 300 creates and then 300 updates under the fence all hold (the
//           fence's comparison counts against etcd's limit of 128 per transaction)

import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import { CANDIDATES, LeaderElection } from '../../../src/ha/leader-election.js';
import type { Leadership } from '../../../src/ha/leader-election.js';
import { openEtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import type { EtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import { suiteEtcd } from '../../helpers/suite-etcd.js';
import { eventually } from '../../helpers/kube-http.js';

const FENCED = '/cache/';
const LEASE_SECONDS = 2;

const etcd = suiteEtcd();
const running: Candidate[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map(async (candidate) => {
    await candidate.election.stop();
    await candidate.backend.close();
  }));
});

/** Candidate is one replica's election over its own backend, with its cache prefix fenced. */
interface Candidate {
  readonly identity: string;
  readonly backend: EtcdBackend;
  readonly election: LeaderElection;
}

async function candidates(count: number, prefix = `/test-${randomUUID().slice(0, 8)}`): Promise<Candidate[]> {
  const started: Candidate[] = [];
  for (let i = 0; i < count; i++) {
    // As the app runs it: fenced commits go through the client thread, the election stays here.
    const backend = await openEtcdBackend({ endpoints: etcd.cluster.endpoints, prefix, compactIntervalMs: 0, clientThread: true });
    const identity = `replica-${i}`;
    const election = new LeaderElection({ backend, identity, leaseSeconds: LEASE_SECONDS, onChange: () => undefined, onError: () => undefined });
    backend.fence({ prefix: FENCED, current: () => election.leadership.fence });
    const candidate = { identity, backend, election };
    running.push(candidate);
    started.push(candidate);
    election.start();
  }
  return started;
}

/** leaderOf waits until exactly one of these leads and every one names it; it returns that one. */
async function leaderOf(group: readonly Candidate[]): Promise<Candidate> {
  return eventually(() => {
    const leading = group.filter((c) => c.election.leadership.leading);
    expect(leading).toHaveLength(1);
    const [leader] = leading as [Candidate];
    for (const c of group) expect(c.election.leadership.leader).toBe(leader.identity);
    return leader;
  });
}

function states(group: readonly Candidate[]): Leadership[] {
  return group.map((c) => c.election.leadership);
}

describe('leader election on etcd', () => {
  it('case 1: of three candidates exactly one leads, and all three name the same leader', async () => {
    const group = await candidates(3);
    const leader = await leaderOf(group);
    expect(states(group).filter((s) => s.leading)).toHaveLength(1);
    expect(leader.election.leadership.fence).toBeDefined();
  });

  it('case 2: the leader resigns: another candidate leads, and only one', async () => {
    const group = await candidates(3);
    const first = await leaderOf(group);
    await first.election.stop();
    const rest = group.filter((c) => c !== first);
    const second = await leaderOf(rest);
    expect(second.identity).not.toBe(first.identity);
    expect(first.election.leadership.leading).toBe(false);
  });

  it('case 3: a leader whose lease ends behind its back: fenced commits refused and nothing written, another leads, it learns it lost', async () => {
    const group = await candidates(2);
    const first = await leaderOf(group);
    const fence = first.election.leadership.fence;
    expect(fence).toBeDefined();
    expect(await first.backend.commit({ kind: 'create', key: `${FENCED}before`, value: 'v' })).toMatchObject({ ok: true });
    // The lease id is the last segment of the candidate key; revoking it is what its expiry does.
    const leaseId = fence?.key.toString().split(CANDIDATES).at(-1) ?? '';
    await etcd.raw.leaseClient.leaseRevoke({ ID: leaseId });
    const second = await eventually(() => {
      const other = group.find((c) => c !== first);
      expect(other?.election.leadership.leading).toBe(true);
      return other as Candidate;
    });
    // Whatever the old leader believes meanwhile, etcd refuses its writes behind the old fence.
    const refused = await first.backend.commit({ kind: 'create', key: `${FENCED}after`, value: 'v' }).then(() => undefined, (err: unknown) => err);
    expect(isAppError(refused, 'ServiceUnavailable')).toBe(true);
    expect((await second.backend.list(FENCED)).entries.map((e) => e.key)).toEqual([`${FENCED}before`]);
    await eventually(() => expect(first.election.leadership.leading).toBe(false));
    expect(await second.backend.commit({ kind: 'create', key: `${FENCED}by-second`, value: 'v' })).toMatchObject({ ok: true });
  });

  it('case 4: a candidate that does not lead cannot commit under the fenced prefix; elsewhere it can', async () => {
    const group = await candidates(2);
    const leader = await leaderOf(group);
    const follower = group.find((c) => c !== leader) as Candidate;
    const refused = await follower.backend.commit({ kind: 'create', key: `${FENCED}x`, value: 'v' }).then(() => undefined, (err: unknown) => err);
    expect(isAppError(refused, 'ServiceUnavailable')).toBe(true);
    expect(refused).toMatchObject({ message: expect.stringMatching(/does not lead/) });
    expect(await follower.backend.commit({ kind: 'create', key: '/source/x', value: 'v' })).toMatchObject({ ok: true });
    expect((await leader.backend.list(FENCED)).entries).toEqual([]);
  });

  it('case 5: the leader\'s bursts of 300 creates and then 300 updates under the fence all hold', async () => {
    const leader = await leaderOf(await candidates(1));
    const keys = Array.from({ length: 300 }, (_, i) => `${FENCED}burst-${i}`);
    const created = await Promise.all(keys.map((key) => leader.backend.commit({ kind: 'create', key, value: 'v1' })));
    expect(created.filter((result) => !result.ok)).toEqual([]);
    const updated = await Promise.all(keys.map((key, i) => {
      const result = created[i];
      return leader.backend.commit({ kind: 'update', key, value: 'v2', expected: result?.ok ? result.revision : 0 });
    }));
    expect(updated.filter((result) => !result.ok)).toEqual([]);
    const listed = await leader.backend.list(FENCED);
    expect(listed.entries.filter((e) => e.value === 'v2')).toHaveLength(300);
  });
});
