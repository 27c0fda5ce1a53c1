// The overlay's lookup of overlaid kinds, built from `cache.gvks` as the config parsed them (the
// grammar of `cache.gvks` and `cache.ttl` is tested with the config: test/unit/config/).

import { describe, expect, it } from 'vitest';
import { overlayGvks } from '../../../src/overlay/overlay-gvks.js';
import { numbered } from '../apimachinery/numbered.js';

describe('overlayGvks', () => {
  const gvks = overlayGvks([
    { group: 'cortex.cloud', version: 'v1alpha1', kind: 'Reservation' },
    { group: '', version: 'v1', kind: 'Secret' },
    { group: '', version: 'v1', kind: 'ConfigMap' },
  ]);
  const cases = numbered([
    { name: 'a named group', g: 'cortex.cloud', v: 'v1alpha1', k: 'Reservation', want: true },
    { name: 'another version of it is not overlaid', g: 'cortex.cloud', v: 'v1', k: 'Reservation', want: false },
    { name: 'a core kind asked with group ""', g: '', v: 'v1', k: 'Secret', want: true },
    { name: 'a core kind asked with group "core"', g: 'core', v: 'v1', k: 'ConfigMap', want: true },
    { name: 'kinds are case-sensitive', g: '', v: 'v1', k: 'secret', want: false },
    { name: 'unlisted kind passes through', g: 'apps', v: 'v1', k: 'Deployment', want: false },
  ]);

  it.each(cases)('case $n: $name', ({ g, v, k, want }) => {
    expect(gvks.isOverlaid(g, v, k)).toBe(want);
  });

  it('case 7: duplicates count once; an empty list overlays nothing', () => {
    const secret = { group: '', version: 'v1', kind: 'Secret' };
    expect(overlayGvks([secret, { ...secret }]).size).toBe(1);
    expect(overlayGvks([]).isOverlaid('', 'v1', 'Secret')).toBe(false);
  });
});
