import { describe, expect, it } from 'vitest';
import { overlayKeyString } from '../../../src/overlay/overlay-key.js';
import { key } from './fixtures.js';
import { numbered } from '../apimachinery/numbered.js';

describe('overlayKeyString', () => {
  const cases = numbered([
    { name: 'named group', key: key('a'), want: 'root/team-a/example.io/widgets/default/a' },
    { name: 'core group as ""', key: { ...key('s'), group: '', resource: 'secrets' }, want: 'root/team-a//secrets/default/s' },
    { name: 'core group as "core" is the same', key: { ...key('s'), group: 'core', resource: 'secrets' }, want: 'root/team-a//secrets/default/s' },
    { name: 'cluster-scoped', key: key('n', ''), want: 'root/team-a/example.io/widgets//n' },
    { name: 'separators inside parts are encoded', key: { ...key('a'), cluster: 'root:org/x' }, want: 'root/root%3Aorg%2Fx/example.io/widgets/default/a' },
  ]);

  it.each(cases)('case $n: $name', ({ key: k, want }) => {
    expect(overlayKeyString(k)).toBe(want);
  });

  it('case 6: differing parts give differing strings', () => {
    const strings = new Set([
      overlayKeyString(key('a')),
      overlayKeyString({ ...key('a'), shard: 'x' }),
      overlayKeyString({ ...key('a'), cluster: 'x' }),
      overlayKeyString({ ...key('a'), group: 'x' }),
      overlayKeyString({ ...key('a'), resource: 'x' }),
      overlayKeyString(key('a', 'x')),
      overlayKeyString(key('x')),
    ]);
    expect(strings.size).toBe(7);
  });
});
