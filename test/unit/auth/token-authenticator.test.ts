// TokenAuthenticator: bearer header parsing and constant-time lookup over SHA-256 digests.

import { describe, expect, it } from 'vitest';
import { principalOfToken } from '../../../src/auth/principal.js';
import { TokenAuthenticator } from '../../../src/auth/token-authenticator.js';
import { isAppError } from '../../../src/errors.js';
import { thrown } from '../../helpers/thrown.js';

const alice = principalOfToken({ token: 'alice-token-0123456789', user: 'alice', verbs: ['read', 'write'] });
const bob = principalOfToken({ token: 'bob-token-0123456789abc', user: 'bob', clusters: ['root'], verbs: ['read'] });
const authenticator = new TokenAuthenticator([
  { token: 'alice-token-0123456789', principal: alice },
  { token: 'bob-token-0123456789abc', principal: bob },
]);

describe('TokenAuthenticator', () => {
  it.each([
    ['case 1: alice\'s token', 'Bearer alice-token-0123456789', alice],
    ['case 2: bob\'s token, lowercase scheme', 'bearer bob-token-0123456789abc', bob],
    ['case 3: extra spaces around the token', 'Bearer   alice-token-0123456789 ', alice],
  ])('%s finds its principal', (_name, header, principal) => {
    expect(authenticator.authenticate(header)).toBe(principal);
  });

  it.each([
    ['case 4: no header', undefined],
    ['case 5: empty header', ''],
    ['case 6: Basic scheme', 'Basic YWxpY2U6cGFzcw=='],
    ['case 7: Bearer without token', 'Bearer '],
    ['case 8: two words', 'Bearer alice-token-0123456789 more'],
    ['case 9: unknown token', 'Bearer alice-token-0123456780'],
    ['case 10: a prefix of a token', 'Bearer alice-token'],
    ['case 11: a token plus a suffix', 'Bearer alice-token-0123456789x'],
  ])('%s is Unauthorized, and the message never holds the token', (_name, header) => {
    const error = thrown(() => authenticator.authenticate(header));
    expect(isAppError(error, 'Unauthorized')).toBe(true);
    expect((error as Error).message).not.toContain('alice-token');
  });

  it('case 12: lookup compares every entry (the last match wins, none stops early)', () => {
    expect(authenticator.lookup('bob-token-0123456789abc')).toBe(bob);
    expect(authenticator.lookup('')).toBeUndefined();
    expect(authenticator.lookup('x'.repeat(10_000))).toBeUndefined();
  });
});
