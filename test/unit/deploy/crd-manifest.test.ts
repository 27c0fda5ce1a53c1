// The CRD shipped for real clusters must describe the resource the embedded source serves.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLUSTER_CACHED_RESOURCES } from '../../../src/apiserver/builtin-resources.js';
import { readCrd, resourcesOfCrd, validateCrd } from '../../../src/apiserver/embedded/crd-resources.js';

describe('deploy/crds', () => {
  it('case 1: the ClusterCachedResource CRD is valid and matches the built-in resource', () => {
    const manifest = parse(readFileSync(new URL('../../../deploy/crds/cache.kcp.io_clustercachedresources.yaml', import.meta.url), 'utf8'));
    const view = readCrd(manifest);
    expect(validateCrd(manifest.metadata.name, view)).toEqual([]);
    const [served] = resourcesOfCrd(view);
    const { categories, shortNames, ...rest } = CLUSTER_CACHED_RESOURCES;
    expect(served).toMatchObject(rest);
    expect(served?.categories).toEqual(categories);
    expect(served?.shortNames).toEqual(shortNames);
  });
});
