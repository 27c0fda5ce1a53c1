// The schema the embedded source validates ClusterCachedResources with is the one the CRD for real
// clusters installs, so both refuse the same objects.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CCR_SCHEMA } from '../../../src/apiserver/embedded/ccr-schema.js';

/** withoutDescriptions drops the documentation-only `description` keys of a schema. */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'description').map(([key, v]) => [key, withoutDescriptions(v)]));
}

describe('ClusterCachedResource schema', () => {
  it('case 1: CCR_SCHEMA equals the openAPIV3Schema of deploy/crds/cache.kcp.io_clustercachedresources.yaml', () => {
    const manifest = parse(readFileSync(new URL('../../../deploy/crds/cache.kcp.io_clustercachedresources.yaml', import.meta.url), 'utf8'));
    expect(withoutDescriptions(manifest.spec.versions[0].schema.openAPIV3Schema)).toEqual(CCR_SCHEMA);
  });
});
