// `cache.gvks` entries, `"<group>/<version>/<Kind>"`, parsed once by the config into structured
// kinds; the core group may be written `v1/Secret`, `/v1/Secret` or `core/v1/Secret`.

import { describe, expect, it } from 'vitest';
import { parseGvk } from '../../../src/config/gvk.js';
import { numbered } from '../apimachinery/numbered.js';

describe('parseGvk', () => {
  it.each(numbered([
    { text: 'cortex.cloud/v1alpha1/Reservation', want: { group: 'cortex.cloud', version: 'v1alpha1', kind: 'Reservation' } },
    { text: 'v1/Secret', want: { group: '', version: 'v1', kind: 'Secret' } },
    { text: '/v1/ConfigMap', want: { group: '', version: 'v1', kind: 'ConfigMap' } },
    { text: 'core/v1/Service', want: { group: '', version: 'v1', kind: 'Service' } },
    { text: 'machines.svm.io/v1alpha1/Instance', want: { group: 'machines.svm.io', version: 'v1alpha1', kind: 'Instance' } },
  ]))('case $n: "$text"', ({ text, want }) => {
    expect(parseGvk(text)).toEqual(want);
  });

  it.each(numbered([{ text: 'Secret' }, { text: 'a/b/c/d' }, { text: 'v1/' }, { text: '' }, { text: 'g//Kind' }, { text: 'Apps/v1/Deployment' }, { text: 'apps/v1/1Deployment' }]))(
    'case $n: "$text" is refused',
    ({ text }) => {
      expect(parseGvk(text)).toBeUndefined();
    },
  );
});
