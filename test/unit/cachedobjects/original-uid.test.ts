// Reading a copy's original uid: kcp's key (`cache.kcp.io/original-resource-UID`) first, then the
// key earlier cachegate versions wrote, so copies from before an upgrade keep their uid.
//   case 1: kcp's key
//   case 2: only the earlier key
//   case 3: both: kcp's key wins
//   case 4: neither (or no annotations): ''

import { describe, expect, it } from 'vitest';
import {
  LEGACY_ORIGINAL_RESOURCE_UID_ANNOTATION, ORIGINAL_RESOURCE_UID_ANNOTATION, originalUidOf,
} from '../../../src/cachedobjects/cached-object-annotations.js';

describe('originalUidOf', () => {
  const cases: ReadonlyArray<{ name: string; annotations: Record<string, string> | undefined; uid: string }> = [
    { name: 'case 1: kcp\'s key', annotations: { [ORIGINAL_RESOURCE_UID_ANNOTATION]: 'u-1' }, uid: 'u-1' },
    { name: 'case 2: only the earlier key', annotations: { [LEGACY_ORIGINAL_RESOURCE_UID_ANNOTATION]: 'u-2' }, uid: 'u-2' },
    { name: 'case 3: both: kcp\'s key wins', annotations: { [ORIGINAL_RESOURCE_UID_ANNOTATION]: 'new', [LEGACY_ORIGINAL_RESOURCE_UID_ANNOTATION]: 'old' }, uid: 'new' },
    { name: 'case 4: neither', annotations: undefined, uid: '' },
  ];
  for (const c of cases) {
    it(c.name, () => expect(originalUidOf(c.annotations)).toBe(c.uid));
  }
});
