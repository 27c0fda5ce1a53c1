// The readiness checks of one app: `serving` (the listener is up and not shutting down) and one
// `source:<name>` check per configured source, each failing with its reason.

import type { Checker } from '../http/probes.js';
import type { Sources } from './sources.js';

/** readinessChecks names every check /readyz runs. */
export function readinessChecks(serving: () => boolean, sources: Sources): Record<string, Checker> {
  const checks: Record<string, Checker> = {
    serving: () => {
      if (!serving()) throw new Error('not serving (starting or shutting down)');
    },
  };
  for (const name of sources.names) checks[`source:${name}`] = () => sources.check(name);
  return checks;
}
