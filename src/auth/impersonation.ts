// Kubernetes' impersonation headers (`kubectl --as`, `--as-group`, `--as-uid`; proxies acting for
// their users) ask the server to treat a request as another user's. cachegate's tokens carry no
// right to do that, so such a request is refused, as kube-apiserver refuses a user without the
// `impersonate` verb. Served as the token's own user instead, a proxy that narrows access per user
// through impersonation would silently get its token's wider access.

import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../errors.js';
import type { Principal } from './principal.js';

/** IMPERSONATION_HEADERS name the resource each header asks to act as, in kube-apiserver's words. */
const IMPERSONATION_HEADERS: ReadonlyArray<readonly [header: string, resource: string]> = [
  ['impersonate-user', 'users'],
  ['impersonate-group', 'groups'],
  ['impersonate-uid', 'uids'],
];

/** impersonationRefusal is the Forbidden answer to a request that asks to act as someone else, or undefined. */
export function impersonationRefusal(headers: IncomingHttpHeaders, principal: Principal): AppError | undefined {
  for (const [header, resource] of IMPERSONATION_HEADERS) {
    const value = headers[header];
    if (value !== undefined) return refusal(resource, Array.isArray(value) ? (value[0] ?? '') : value, principal);
  }
  const extra = Object.keys(headers).find((name) => name.startsWith('impersonate-extra-'));
  return extra === undefined ? undefined : refusal('userextras', extra.slice('impersonate-extra-'.length), principal);
}

function refusal(resource: string, name: string, principal: Principal): AppError {
  const message = `${resource} ${JSON.stringify(name)} is forbidden: User ${JSON.stringify(principal.user)} cannot impersonate resource ${JSON.stringify(resource)} in API group "" at the cluster scope: cachegate does not support impersonation`;
  return new AppError('Forbidden', message, { name, kind: resource });
}
