import { describe, it, expect } from 'vitest';
import { AWAY, awayFromReadableName, isAtReadableName } from '../../../src/cachedobjects/away-from-readable-name.js';
import { cachedObjectName, hashedName } from '../../../src/cachedobjects/cached-object-name.js';
import { trustedOrigin } from '../../../src/cachedobjects/trusted-origin.js';
import { wrapCachedObject } from '../../../src/cachedobjects/wrap-cached-object.js';
import type { GroupVersionResource } from '../../../src/apimachinery/gvr.js';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { numbered } from '../apimachinery/numbered.js';

const INSTANCES: GroupVersionResource = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const CONFIGMAPS: GroupVersionResource = { group: '', version: 'v1', resource: 'configmaps' };

function copy(gvr: GroupVersionResource, namespace: string, name: string, copyName: string): KubeObject {
  const original: KubeObject = { metadata: { name, ...(namespace ? { namespace } : {}), uid: 'u', resourceVersion: '1' } };
  return wrapCachedObject({ original, gvr, shard: 'shard-1', cluster: 'root:org', identityHash: 'id', name: copyName });
}

function withoutLabels(co: KubeObject): KubeObject {
  return { ...co, metadata: { ...co.metadata, labels: {}, annotations: {} } };
}

describe('awayFromReadableName', () => {
  const cases = numbered([
    { name: 'a cluster-scoped copy at its readable name', obj: copy(INSTANCES, '', 'web-1', cachedObjectName(INSTANCES, '', 'web-1')), away: false },
    { name: 'a namespaced core copy at its readable name', obj: copy(CONFIGMAPS, 'team-a', 'settings', cachedObjectName(CONFIGMAPS, 'team-a', 'settings')), away: false },
    { name: 'a copy at its hashed name (its readable name was taken)', obj: copy(INSTANCES, '', 'web-1', hashedName(INSTANCES, '', 'web-1')), away: true },
    { name: 'a copy whose readable name is not a valid name sits at its hashed name', obj: copy(INSTANCES, '', 'Web-1', cachedObjectName(INSTANCES, '', 'Web-1')), away: true },
    { name: 'an object at the readable form of an original whose readable name is not valid', obj: copy(INSTANCES, '', 'Web-1', 'v1alpha1.instances.machines.svm.io.Web-1'), away: true },
    { name: 'labels stripped from a copy at its readable name', obj: withoutLabels(copy(INSTANCES, '', 'web-1', cachedObjectName(INSTANCES, '', 'web-1'))), away: true },
    { name: 'labels stripped from a copy at its hashed name', obj: withoutLabels(copy(INSTANCES, '', 'web-1', hashedName(INSTANCES, '', 'web-1'))), away: true },
    { name: 'labels naming another original than the name does', obj: copy(INSTANCES, '', 'web-2', cachedObjectName(INSTANCES, '', 'web-1')), away: true },
    { name: 'a namespaced original under its cluster-scoped readable form', obj: copy(CONFIGMAPS, 'team-a', 'settings', 'v1.configmaps.core.settings'), away: true },
    { name: 'not a CachedObject', obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'y' } } as KubeObject, away: true },
  ]);

  it.each(cases)('case $n: $name', ({ obj, away }) => {
    expect(awayFromReadableName(obj)).toEqual(away ? [AWAY] : []);
    // What is not filed, trustedOrigin accepts at its readable name: the test the copy lookup relies on.
    if (!away) expect(trustedOrigin(obj)).toBeDefined();
    expect(isAtReadableName(obj)).toBe(!away);
  });
});
