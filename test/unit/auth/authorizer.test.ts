// The authorizer's rules: verbs, cluster allow-lists and wildcard requests.

import { describe, expect, it } from 'vitest';
import { canRead, canWrite, requireAccess, visibleClusters } from '../../../src/auth/authorizer.js';
import { internalPrincipal, principalOfToken } from '../../../src/auth/principal.js';
import { isAppError } from '../../../src/errors.js';
import { thrown } from '../../helpers/thrown.js';

const admin = principalOfToken({ token: 't'.repeat(16), user: 'admin', verbs: ['read', 'write'] });
const scoped = principalOfToken({ token: 's'.repeat(16), user: 'team', clusters: ['root', 'team:a'], verbs: ['read', 'write'] });
const reader = principalOfToken({ token: 'r'.repeat(16), user: 'auditor', verbs: ['read'] });

describe('authorizer', () => {
  it.each([
    ['case 1: admin', admin, 'team-b', true, true],
    ['case 2: scoped, its cluster', scoped, 'team:a', true, true],
    ['case 3: scoped, another cluster', scoped, 'team-b', false, false],
    ['case 4: read-only', reader, 'root', true, false],
    ['case 5: internal', internalPrincipal(), 'anything', true, true],
  ])('%s: read %s / write', (_name, principal, cluster, read, write) => {
    expect(canRead(principal, cluster)).toBe(read);
    expect(canWrite(principal, cluster)).toBe(write);
  });

  it('case 6: `*` is every cluster: allowed for all-cluster tokens only; denials are Forbidden naming the user', () => {
    expect(() => requireAccess(admin, 'write', '*')).not.toThrow();
    const denied = thrown(() => requireAccess(scoped, 'read', '*'));
    expect(isAppError(denied, 'Forbidden')).toBe(true);
    expect((denied as Error).message).toContain('"team"');
    expect(isAppError(thrown(() => requireAccess(reader, 'write', 'root')), 'Forbidden')).toBe(true);
  });

  it('case 7: visibleClusters narrows only limited tokens', () => {
    expect(visibleClusters(admin)).toBeUndefined();
    expect(visibleClusters(scoped)).toEqual(['root', 'team:a']);
  });
});
