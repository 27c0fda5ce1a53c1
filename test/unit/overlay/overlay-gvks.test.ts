import { describe, expect, it } from 'vitest';
import { parseOverlayGvks, parseTtl } from '../../../src/overlay/overlay-gvks.js';
import { numbered } from '../apimachinery/numbered.js';

describe('parseOverlayGvks', () => {
  const gvks = parseOverlayGvks(['cortex.cloud/v1alpha1/Reservation', 'v1/Secret', '/v1/ConfigMap', 'core/v1/Service']);
  const cases = numbered([
    { name: 'a named group', g: 'cortex.cloud', v: 'v1alpha1', k: 'Reservation', want: true },
    { name: 'another version of it is not overlaid', g: 'cortex.cloud', v: 'v1', k: 'Reservation', want: false },
    { name: 'core written v1/Secret', g: '', v: 'v1', k: 'Secret', want: true },
    { name: 'core written /v1/ConfigMap', g: '', v: 'v1', k: 'ConfigMap', want: true },
    { name: 'core written core/v1/Service', g: '', v: 'v1', k: 'Service', want: true },
    { name: 'the core group asked as "core"', g: 'core', v: 'v1', k: 'Secret', want: true },
    { name: 'kinds are case-sensitive', g: '', v: 'v1', k: 'secret', want: false },
    { name: 'unlisted kind passes through', g: 'apps', v: 'v1', k: 'Deployment', want: false },
  ]);

  it.each(cases)('case $n: $name', ({ g, v, k, want }) => {
    expect(gvks.isOverlaid(g, v, k)).toBe(want);
  });

  it('case 9: duplicates count once; an empty list overlays nothing', () => {
    expect(parseOverlayGvks(['v1/Secret', '/v1/Secret']).size).toBe(1);
    expect(parseOverlayGvks([]).isOverlaid('', 'v1', 'Secret')).toBe(false);
  });

  it.each(numbered([{ text: 'Secret' }, { text: 'a/b/c/d' }, { text: 'v1/' }, { text: '' }, { text: 'g//Kind' }]))(
    'case $n: "$text" is Invalid and names its index',
    ({ text }) => {
      expect(() => parseOverlayGvks(['v1/Secret', text])).toThrow(expect.objectContaining({ code: 'Invalid', message: expect.stringContaining('cache.gvks[1]') }));
    },
  );
});

describe('parseTtl', () => {
  const cases = numbered([
    { text: '2m', want: 120_000 },
    { text: '90s', want: 90_000 },
    { text: '500ms', want: 500 },
    { text: '1h', want: 3_600_000 },
    { text: '1m30s', want: 90_000 },
    { text: '1.5s', want: 1500 },
    { text: '0s', want: 120_000 },
    { text: '-5s', want: 120_000 },
    { text: '', want: 120_000 },
  ]);

  it.each(cases)('case $n: "$text" is $want ms', ({ text, want }) => {
    expect(parseTtl(text)).toBe(want);
  });

  it.each(numbered([{ text: '2' }, { text: 'm' }, { text: '2 minutes' }, { text: '-x' }, { text: '5d' }]))(
    'case $n: "$text" is Invalid',
    ({ text }) => {
      expect(() => parseTtl(text)).toThrow(expect.objectContaining({ code: 'Invalid' }));
    },
  );
});
