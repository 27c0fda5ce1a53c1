// The etcd backend on a 3-member cluster that loses a member (SIGKILL) in the middle of writing:
// one backend commits 1,000 creates, 32 at a time, and lists in a loop, while a member dies.
//   case 1: a follower dies
//   case 2: the leader dies (the cluster elects another while commits are in flight)
// In both: every acknowledged create is in the final list at its revision; a commit that fails
// fails with ServiceUnavailable (one in flight on the dead member may have been applied anyway:
// etcd's answer was lost, not the write, so a refused create may exist); no list fails, and each
// holds every create acknowledged before it began; the feed delivers every create that exists,
// exactly once, in revision order.

import { afterEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import type { BackendList, OpResult } from '../../../src/storage/backend.js';
import { openEtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import type { EtcdBackend } from '../../../src/storage/etcd/etcd-backend.js';
import { startEtcd } from '../../helpers/etcd-cluster.js';
import type { EtcdCluster, EtcdMember } from '../../helpers/etcd-cluster.js';
import { FeedRecorder } from '../../helpers/feed-recorder.js';
import { eventually } from '../../helpers/kube-http.js';

const CREATES = 1_000;
const CONCURRENCY = 32;
const KILL_AFTER_ACKS = 300;

/** Run is what happened to the creates and the lists of one run. */
interface Run {
  readonly acked: Map<string, number>;
  readonly refused: Map<string, unknown>;
  readonly listFailures: unknown[];
  readonly listsMissingAcks: string[];
  readonly lists: number;
}

describe('etcd backend losing a member while writing', () => {
  let cluster: EtcdCluster | undefined;
  let backend: EtcdBackend | undefined;

  afterEach(async () => {
    await backend?.close();
    await cluster?.stop();
  });

  it.each([
    ['case 1: a follower dies', 'follower'],
    ['case 2: the leader dies', 'leader'],
  ] as const)('%s', async (_name, victimRole) => {
    cluster = await startEtcd({ members: 3 });
    backend = await openEtcdBackend({ endpoints: cluster.endpoints, compactIntervalMs: 0 });
    const feed = new FeedRecorder();
    backend.watch('/loss/', await backend.currentRevision(), feed.handlers);
    const victim = await pickVictim(cluster, victimRole);

    const run = await writeAndListWhile(backend, () => victim.kill('SIGKILL'));

    expect(run.listFailures).toEqual([]);
    expect(run.listsMissingAcks).toEqual([]);
    expect(run.lists).toBeGreaterThan(0);
    for (const err of run.refused.values()) expect(isAppError(err, 'ServiceUnavailable')).toBe(true);

    const final = await backend.list('/loss/');
    const stored = new Map(final.entries.map((entry) => [entry.key, entry.modRevision]));
    for (const [key, revision] of run.acked) expect(stored.get(key), key).toBe(revision);
    for (const key of stored.keys()) expect(run.acked.has(key) || run.refused.has(key), key).toBe(true);

    const storedRevisions = [...stored.values()].sort((a, b) => a - b);
    await feed.reached(storedRevisions.at(-1)!);
    expect(feed.revisions()).toEqual(storedRevisions);
    expect(feed.compactions).toBe(0);
  });
});

async function pickVictim(cluster: EtcdCluster, role: 'leader' | 'follower'): Promise<EtcdMember> {
  const leader = await cluster.leader();
  return role === 'leader' ? leader : cluster.members.find((member) => member !== leader)!;
}

/** writeAndListWhile runs the creates and a list loop, and calls fault once KILL_AFTER_ACKS creates are acknowledged. */
async function writeAndListWhile(backend: EtcdBackend, fault: () => Promise<void>): Promise<Run> {
  const acked = new Map<string, number>();
  const refused = new Map<string, unknown>();
  let faulted: Promise<void> | undefined;
  let next = 0;
  const writer = async (): Promise<void> => {
    while (next < CREATES) {
      const key = `/loss/${String(next++).padStart(4, '0')}`;
      const result: OpResult | undefined = await backend.commit({ kind: 'create', key, value: `{"key":"${key}"}` }).catch((err: unknown) => {
        refused.set(key, err);
        return undefined;
      });
      if (result?.ok === false) refused.set(key, new Error(`create refused: current ${result.current}`));
      if (result?.ok === true) acked.set(key, result.revision);
      if (acked.size >= KILL_AFTER_ACKS) faulted ??= fault();
    }
  };
  let writing = true;
  const lister = listLoop(backend, acked, () => writing);
  await Promise.all(Array.from({ length: CONCURRENCY }, writer));
  writing = false;
  await faulted;
  return { acked, refused, ...(await lister) };
}

/** listLoop lists until writing ends; each list must succeed and hold every create acknowledged before it began. */
async function listLoop(
  backend: EtcdBackend, acked: ReadonlyMap<string, number>, writing: () => boolean,
): Promise<Pick<Run, 'listFailures' | 'listsMissingAcks' | 'lists'>> {
  const listFailures: unknown[] = [];
  const listsMissingAcks: string[] = [];
  let lists = 0;
  while (writing()) {
    const ackedBefore = [...acked.keys()];
    const listed: BackendList | undefined = await backend.list('/loss/').catch((err: unknown) => {
      listFailures.push(err);
      return undefined;
    });
    // A failed list (or, below, a list missing an acknowledged create) fails the case: the loop stops
    // there, so the first failure is reported instead of piling up for as long as the writers run.
    if (listed === undefined) break;
    lists++;
    const keys = new Set(listed.entries.map((entry) => entry.key));
    listsMissingAcks.push(...ackedBefore.filter((key) => !keys.has(key)));
    if (listsMissingAcks.length > 0) break;
  }
  await eventually(() => expect(lists).toBeGreaterThan(0));
  return { listFailures, listsMissingAcks, lists };
}
