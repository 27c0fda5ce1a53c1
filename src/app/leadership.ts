// A replica's part in leader election (with the etcd backend): every replica serves reads from its
// own watch cache and follows its sources; the one that leads also runs the controllers, and its
// cache writes are fenced, so a replica that lost the leadership without knowing it (paused past
// its lease) cannot write. Leadership changes start and stop the controllers one at a time, in
// order, each acting on the leadership as it is when it runs.

import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { LeaderElection } from '../ha/leader-election.js';
import type { EtcdBackend } from '../storage/etcd/etcd-backend.js';
import type { Sources } from './sources.js';

/** ReplicaLeadershipOptions: cachePrefix is the key space only the leader writes. */
export interface ReplicaLeadershipOptions {
  readonly backend: EtcdBackend;
  readonly cachePrefix: string;
  readonly leaseSeconds: number;
  readonly sources: Sources;
  readonly log: Logger;
}

/** ReplicaLeadership is the election as the app uses it. */
export interface ReplicaLeadership {
  leading(): boolean;
  /** leader is the leading replica's identity, when known. */
  leader(): string | undefined;
  /** settled: this replica has known a leader (itself or another) at least once since it started. */
  settled(): boolean;
  start(): void;
  /** stop resigns (another replica leads at once); call it once the controllers have stopped. */
  stop(): Promise<void>;
}

/** replicaLeadership fences the cache's key space and ties the controllers to the election. */
export function replicaLeadership(opts: ReplicaLeadershipOptions): ReplicaLeadership {
  const { backend, sources, log } = opts;
  // How the other replicas name this one.
  const identity = `${hostname()}/${process.pid}`;
  let transitions: Promise<void> = Promise.resolve();
  let settled = false;
  const election: LeaderElection = new LeaderElection({
    backend,
    identity,
    leaseSeconds: opts.leaseSeconds,
    onChange: (leadership) => {
      log.info({ leading: leadership.leading, leader: leadership.leader }, leadership.leading ? 'this replica leads' : 'this replica follows');
      // The first outcome decides whether readiness waits for the controllers' first sync: it does
      // for a replica that leads from its start (a restart), not for a follower that leads later.
      const gateReadiness = !settled;
      if (leadership.leader !== undefined) settled = true;
      transitions = transitions.then(async () => {
        if (election.leadership.leading) sources.lead(gateReadiness);
        else await sources.follow();
      }).catch((err: unknown) => log.error({ err }, 'the controllers could not follow a leadership change'));
    },
    onError: (err) => log.warn({ err }, 'leader election: the campaign failed, trying again'),
  });
  backend.fence({ prefix: opts.cachePrefix, current: () => election.leadership.fence });
  return {
    leading: () => election.leadership.leading,
    leader: () => election.leadership.leader,
    settled: () => settled,
    start: () => election.start(),
    async stop() {
      await transitions;
      await election.stop();
    },
  };
}
