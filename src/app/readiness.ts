// The readiness checks of one app: `serving` (the listener is up and not shutting down), the
// durable backend as `backend:<kind>` when there is one, and one `source:<name>` check per
// configured source, each failing with its reason.

import type { Checker } from '../http/probes.js';
import type { BackendHealth } from '../storage/backend.js';
import type { Sources } from './sources.js';

/** readinessChecks names every check /readyz runs. */
export function readinessChecks(serving: () => boolean, sources: Sources, backend?: { kind: string; health(): BackendHealth }): Record<string, Checker> {
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
  for (const name of sources.names) checks[`source:${name}`] = () => sources.check(name);
  return checks;
}
