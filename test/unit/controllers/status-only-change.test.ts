// isStatusOnlyChange: which CCR updates the root controller leaves unqueued.
//   case 1: only status and resourceVersion changed → status only
//   case 2: managedFields changed with the status → status only
//   case 3: spec changed → not
//   case 4: a label, an annotation or a finalizer changed → not
//   case 5: deletionTimestamp set → not
//   case 6: a top-level field other than spec and status appeared → not

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { isStatusOnlyChange } from '../../../src/controllers/clustercachedresources/status-only-change.js';

const base: KubeObject = {
  apiVersion: 'cache.kcp.io/v1alpha1',
  kind: 'ClusterCachedResource',
  metadata: { name: 'c', resourceVersion: '5', labels: { a: 'b' }, finalizers: ['cache.kcp.io/purge'] },
  spec: { group: 'g', version: 'v1', resource: 'r' },
  status: { phase: 'Ready', resourceCounts: { local: 1, cache: 1 } },
};

function changed(edit: (obj: Record<string, unknown> & { metadata: Record<string, unknown> }) => void): KubeObject {
  const copy = structuredClone(base) as Record<string, unknown> & { metadata: Record<string, unknown> };
  copy.metadata['resourceVersion'] = '6';
  edit(copy);
  return copy as KubeObject;
}

describe('isStatusOnlyChange', () => {
  it.each([
    ['case 1: status and resourceVersion', changed((o) => (o['status'] = { phase: 'Ready', resourceCounts: { local: 2, cache: 1 } })), true],
    ['case 2: managedFields with the status', changed((o) => { o['status'] = {}; o.metadata['managedFields'] = [{ manager: 'x' }]; }), true],
    ['case 3: spec', changed((o) => (o['spec'] = { group: 'g', version: 'v2', resource: 'r' })), false],
    ['case 4a: a label', changed((o) => (o.metadata['labels'] = { a: 'c' })), false],
    ['case 4b: an annotation', changed((o) => (o.metadata['annotations'] = { x: 'y' })), false],
    ['case 4c: a finalizer', changed((o) => (o.metadata['finalizers'] = [])), false],
    ['case 5: deletionTimestamp', changed((o) => (o.metadata['deletionTimestamp'] = '2026-12-01T00:00:00Z')), false],
    ['case 6: another top-level field', changed((o) => (o['extra'] = 1)), false],
  ])('%s', (_name, next, statusOnly) => {
    expect(isStatusOnlyChange(next, base)).toBe(statusOnly);
  });
});
