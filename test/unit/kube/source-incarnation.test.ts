// SourceIncarnation: the signs that a source restarted and counts resourceVersions again.

import { describe, expect, it } from 'vitest';
import { SourceIncarnation, isOlder } from '../../../src/kube/source-incarnation.js';

describe('isOlder', () => {
  it.each([
    ['case 1: smaller number', '9', '10', true],
    ['case 2: same length, smaller', '123', '124', true],
    ['case 3: equal', '42', '42', false],
    ['case 4: larger', '100', '99', false],
    ['case 5: the first version of anything', '', '5', false],
    ['case 6: opaque versions are never older', 'abc', '5', false],
    ['case 7: leading zeros are not plain decimals', '007', '8', false],
    ['case 8: beyond 2^53 still ordered', '18446744073709551614', '18446744073709551615', true],
  ])('%s', (_name, a, b, want) => {
    expect(isOlder(a, b)).toBe(want);
  });
});

describe('SourceIncarnation', () => {
  it('case 1: versions that only grow are seen; a smaller one means the source rewound', () => {
    const inc = new SourceIncarnation();
    expect(inc.listed('uid-a', '10')).toBe(false);
    expect(inc.seen('11')).toBe(true);
    expect(inc.seen('11')).toBe(true);
    expect(inc.seen('3')).toBe(false);
  });

  it('case 2: a list older than what was seen is reported, and becomes the new reference', () => {
    const inc = new SourceIncarnation();
    inc.listed('uid-a', '500');
    expect(inc.listed('uid-b', '7')).toBe(true);
    expect(inc.seen('8')).toBe(true);
  });

  it('case 3: another identity is another incarnation; unknown identities are never compared', () => {
    const inc = new SourceIncarnation();
    inc.listed('uid-a', '1');
    expect(inc.isAnother('uid-a')).toBe(false);
    expect(inc.isAnother('uid-b')).toBe(true);
    expect(inc.isAnother(undefined)).toBe(false);
    inc.listed(undefined, '2');
    expect(inc.isAnother('uid-b')).toBe(false);
  });
});
