// The readiness checks of one app: `serving` (the listener is up and not shutting down), the
// durable backend as `backend:<kind>` when there is one, `leader` under leader election (failing
// only until a first leader is known: a follower serves, and a failover must not take every
// replica out of service; it says who leads), and one `source:<name>` check per configured
// source, each failing with its reason.

import type { Checker } from '../http/probes.js';
import type { BackendHealth } from '../storage/backend.js';
import type { ReplicaLeadership } from './leadership.js';
import type { Sources } from './sources.js';

/** readinessChecks names every check /readyz runs. */
export function readinessChecks(
  serving: () => boolean,
  sources: Sources,
  backend?: { kind: string; health(): BackendHealth },
  leadership?: Pick<ReplicaLeadership, 'leading' | 'leader' | 'settled'>,
): Record<string, Checker> {
  const checks: Record<string, Checker> = {
    serving: () => {
      if (!serving()) throw new Error('not serving (starting or shutting down)');
    },
  };
  if (backend !== undefined) {
    checks[`backend:${backend.kind}`] = () => {
      const health = backend.health();
      if (!health.ok) throw new Error(health.message ?? `${backend.kind} backend unreachable`);
    };
  }
  if (leadership !== undefined) {
    checks['leader'] = () => {
      if (!leadership.settled()) throw new Error('no leader elected yet');
      return leadership.leading() ? 'this replica leads' : `follows ${leadership.leader() ?? 'a leader being elected again'}`;
    };
  }
  for (const name of sources.names) checks[`source:${name}`] = () => sources.check(name);
  return checks;
}
