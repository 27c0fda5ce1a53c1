import { describe, it, expect } from 'vitest';
import {
  BY_GROUP_RESOURCE,
  BY_GVR_AND_LOGICAL_CLUSTER,
  BY_IDENTITY_AND_GROUP_RESOURCE,
  BY_SCHEMA,
  BY_SCHEMA_AND_NAME,
  BY_SCHEMA_LABEL,
  BY_SOURCE_CLUSTER_AND_SCHEMA,
  cachedObjectIndexes,
  groupResourceIndexKey,
  gvrAndLogicalClusterKey,
  identityAndGroupResourceKey,
  isCopyOf,
  originalCopyQuery,
  schemaAndNameKey,
  schemaIndexKey,
  sourceClusterAndSchemaKey,
} from '../../../src/cachedobjects/cached-object-indexes.js';
import { cachedObjectOrigin } from '../../../src/cachedobjects/cached-object-origin.js';
import { AWAY, AWAY_FROM_READABLE_NAME } from '../../../src/cachedobjects/away-from-readable-name.js';
import { cachedObjectName } from '../../../src/cachedobjects/cached-object-name.js';
import { hashedLabelValue } from '../../../src/cachedobjects/cached-object-labels.js';
import { wrapCachedObject } from '../../../src/cachedobjects/wrap-cached-object.js';
import type { GroupVersionResource } from '../../../src/apimachinery/gvr.js';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { numbered } from '../apimachinery/numbered.js';
import { BY_LABEL, BY_LOCATION_PART, BY_NAMESPACE, labelPresenceKey, labelValueKey } from '../../../src/cachedobjects/cached-object-label-index.js';

const INSTANCES: GroupVersionResource = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const CONFIGMAPS: GroupVersionResource = { group: '', version: 'v1', resource: 'configmaps' };
const LONG_GVR: GroupVersionResource = { group: `${'g'.repeat(50)}.example.com`, version: 'v1', resource: 'widgets' };
const LONG_NAME = `n${'a'.repeat(80)}`;
const ID = 'abc123';

function cached(gvr: GroupVersionResource, namespace: string, name: string, identityHash = ID, labels?: Record<string, string>): KubeObject {
  const original: KubeObject = { metadata: { name, ...(namespace ? { namespace } : {}), uid: 'u', resourceVersion: '1', ...(labels ? { labels } : {}) } };
  return wrapCachedObject({ original, gvr, shard: 'shard-1', cluster: 'root:org', identityHash, name: cachedObjectName(gvr, namespace, name) });
}

function keys(obj: KubeObject, indexes = cachedObjectIndexes()): Record<string, readonly string[]> {
  return Object.fromEntries(indexes.map(({ name, fn }) => [name, fn(obj)]));
}

describe('CachedObject index keys', () => {
  const cases = numbered([
    {
      name: 'cluster-scoped custom resource',
      obj: cached(INSTANCES, '', 'web-server-1'),
      want: {
        [BY_GVR_AND_LOGICAL_CLUSTER]: ['v1alpha1.instances.machines.svm.io|root:org'],
        [BY_IDENTITY_AND_GROUP_RESOURCE]: ['abc123|instances.machines.svm.io'],
        [BY_GROUP_RESOURCE]: ['instances.machines.svm.io'],
        [BY_SCHEMA]: ['v1alpha1.instances.machines.svm.io'],
        [BY_SCHEMA_AND_NAME]: ['v1alpha1.instances.machines.svm.io.web-server-1'],
        [BY_SOURCE_CLUSTER_AND_SCHEMA]: ['shard-1|root:org|v1alpha1.instances.machines.svm.io'],
        [BY_LABEL]: [],
        [BY_NAMESPACE]: [''],
        [BY_LOCATION_PART]: ['shard=shard-1', 'cluster=root:org'],
        [AWAY_FROM_READABLE_NAME]: [],
        [BY_SCHEMA_LABEL]: ['v1alpha1.instances.machines.svm.io'],
      },
    },
    {
      name: 'namespaced core configmap',
      obj: cached(CONFIGMAPS, 'team-a', 'settings'),
      want: {
        [BY_GVR_AND_LOGICAL_CLUSTER]: ['v1.configmaps.core|root:org'],
        [BY_IDENTITY_AND_GROUP_RESOURCE]: ['abc123|configmaps.core'],
        [BY_GROUP_RESOURCE]: ['configmaps.core'],
        [BY_SCHEMA]: ['v1.configmaps.core'],
        [BY_SCHEMA_AND_NAME]: ['v1.configmaps.core.team-a.settings', 'v1.configmaps.core.settings'],
        [BY_SOURCE_CLUSTER_AND_SCHEMA]: ['shard-1|root:org|v1.configmaps.core'],
        [BY_LABEL]: [],
        [BY_NAMESPACE]: ['team-a'],
        [BY_LOCATION_PART]: ['shard=shard-1', 'cluster=root:org'],
        [AWAY_FROM_READABLE_NAME]: [],
        [BY_SCHEMA_LABEL]: ['v1.configmaps.core'],
      },
    },
    {
      name: 'hashed labels are read back in full from annotations',
      obj: cached(LONG_GVR, 'team-a', LONG_NAME),
      want: {
        [BY_GVR_AND_LOGICAL_CLUSTER]: [`v1.widgets.${LONG_GVR.group}|root:org`],
        [BY_IDENTITY_AND_GROUP_RESOURCE]: [`abc123|widgets.${LONG_GVR.group}`],
        [BY_GROUP_RESOURCE]: [`widgets.${LONG_GVR.group}`],
        [BY_SCHEMA]: [`v1.widgets.${LONG_GVR.group}`],
        [BY_SCHEMA_AND_NAME]: [`v1.widgets.${LONG_GVR.group}.team-a.${LONG_NAME}`, `v1.widgets.${LONG_GVR.group}.${LONG_NAME}`],
        [BY_SOURCE_CLUSTER_AND_SCHEMA]: [`shard-1|root:org|v1.widgets.${LONG_GVR.group}`],
        [BY_LABEL]: [],
        [BY_NAMESPACE]: ['team-a'],
        [BY_LOCATION_PART]: ['shard=shard-1', 'cluster=root:org'],
        [AWAY_FROM_READABLE_NAME]: [],
        [BY_SCHEMA_LABEL]: [hashedLabelValue(`v1.widgets.${LONG_GVR.group}`)],
      },
    },
    {
      name: 'no identity → not in the identity index',
      obj: cached(CONFIGMAPS, 'team-a', 'settings', ''),
      want: {
        [BY_GVR_AND_LOGICAL_CLUSTER]: ['v1.configmaps.core|root:org'],
        [BY_IDENTITY_AND_GROUP_RESOURCE]: [],
        [BY_GROUP_RESOURCE]: ['configmaps.core'],
        [BY_SCHEMA]: ['v1.configmaps.core'],
        [BY_SCHEMA_AND_NAME]: ['v1.configmaps.core.team-a.settings', 'v1.configmaps.core.settings'],
        [BY_SOURCE_CLUSTER_AND_SCHEMA]: ['shard-1|root:org|v1.configmaps.core'],
        [BY_LABEL]: [],
        [BY_NAMESPACE]: ['team-a'],
        [BY_LOCATION_PART]: ['shard=shard-1', 'cluster=root:org'],
        [AWAY_FROM_READABLE_NAME]: [],
        [BY_SCHEMA_LABEL]: ['v1.configmaps.core'],
      },
    },
    {
      name: 'not a CachedObject → in no index but the one of objects away from a readable name',
      obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'y' } } as KubeObject,
      want: { ...Object.fromEntries(cachedObjectIndexes().map(({ name }) => [name, []])), [AWAY_FROM_READABLE_NAME]: [AWAY] },
    },
  ]);

  it.each(cases)('case $n: $name', ({ obj, want }) => {
    expect(keys(obj)).toEqual(want);
  });

  it(`case ${cases.length + 1}: one set of index functions keeps giving each object its own keys, whatever came before`, () => {
    // A store runs one set for every write; the keys it remembers from the last write must not leak into the next.
    const indexes = cachedObjectIndexes();
    const sequence = [...cases, ...[...cases].reverse(), ...cases];
    for (const { obj, want } of sequence) expect(keys(obj, indexes)).toEqual(want);
    const otherShard = wrapCachedObject({ original: { metadata: { name: 'a', uid: 'u', resourceVersion: '1' } }, gvr: INSTANCES, shard: 'shard-2', cluster: 'root:org', identityHash: 'other', name: 'n' });
    expect(keys(otherShard, indexes)[BY_SOURCE_CLUSTER_AND_SCHEMA]).toEqual(['shard-2|root:org|v1alpha1.instances.machines.svm.io']);
    expect(keys(otherShard, indexes)[BY_IDENTITY_AND_GROUP_RESOURCE]).toEqual(['other|instances.machines.svm.io']);
    expect(keys(cached(INSTANCES, '', 'b'), indexes)[BY_SOURCE_CLUSTER_AND_SCHEMA]).toEqual(['shard-1|root:org|v1alpha1.instances.machines.svm.io']);
  });
});

describe('CachedObject index key builders match the index functions', () => {
  const cases = numbered([
    { name: 'cluster-scoped custom resource', gvr: INSTANCES, namespace: '', object: 'web-server-1' },
    { name: 'namespaced core configmap', gvr: CONFIGMAPS, namespace: 'team-a', object: 'settings' },
    { name: 'hashed labels', gvr: LONG_GVR, namespace: 'team-a', object: LONG_NAME },
  ]);

  it.each(cases)('case $n: $name', ({ gvr, namespace, object }) => {
    const got = keys(cached(gvr, namespace, object));
    const ref = { shard: 'shard-1', cluster: 'root:org', schema: gvr, namespace, name: object };
    expect(got[BY_GVR_AND_LOGICAL_CLUSTER]).toEqual([gvrAndLogicalClusterKey(gvr, 'root:org')]);
    expect(got[BY_IDENTITY_AND_GROUP_RESOURCE]).toEqual([identityAndGroupResourceKey(ID, gvr)]);
    expect(got[BY_GROUP_RESOURCE]).toEqual([groupResourceIndexKey(gvr)]);
    expect(got[BY_SCHEMA]).toEqual([schemaIndexKey(gvr)]);
    const anyNamespace = namespace === '' ? [] : [schemaAndNameKey(gvr, '', object)];
    expect(got[BY_SCHEMA_AND_NAME]).toEqual([schemaAndNameKey(gvr, namespace, object), ...anyNamespace]);
    // The copy of one original is the exact by-schema-and-name key inside its location's indexes.
    const query = originalCopyQuery(ref);
    expect({ cluster: query.cluster, index: query.index }).toEqual({ cluster: `shard-1|root:org`, index: { name: BY_SCHEMA_AND_NAME, value: schemaAndNameKey(gvr, namespace, object) } });
    expect(query.matches(cached(gvr, namespace, object))).toBe(true);
    expect(got[BY_SOURCE_CLUSTER_AND_SCHEMA]).toEqual([sourceClusterAndSchemaKey('shard-1', 'root:org', gvr)]);
  });

  it('case 6: the label index holds key=value and key for each label of the original', () => {
    const got = keys(cached(INSTANCES, '', 'web-1', ID, { tier: 'web', env: 'prod' }));
    expect([...(got[BY_LABEL] ?? [])].sort()).toEqual([labelPresenceKey('env'), labelValueKey('env', 'prod'), labelPresenceKey('tier'), labelValueKey('tier', 'web')].sort());
  });

  it('case 4: builders accept a schema string as well as a GVR', () => {
    expect(schemaIndexKey('v1.configmaps.core')).toBe(schemaIndexKey(CONFIGMAPS));
    expect(gvrAndLogicalClusterKey('v1.configmaps.core', 'root')).toBe(gvrAndLogicalClusterKey(CONFIGMAPS, 'root'));
    expect(schemaAndNameKey('v1.configmaps.core', 'a', 'b')).toBe('v1.configmaps.core.a.b');
  });

  it('case 7: a by-schema-and-name key two originals share holds both; isCopyOf and the copy query tell them apart', () => {
    const dotted: GroupVersionResource = { group: 'b', version: 'v1', resource: 'a' };
    const shorter: GroupVersionResource = { group: '', version: 'v1', resource: 'a' };
    const dottedCopy = cached(dotted, '', 'x');
    const shorterCopy = cached(shorter, '', 'b.x');
    // Schemas v1.a.b and v1.a.core: the core group is named, so these do not collide ...
    expect(keys(dottedCopy)[BY_SCHEMA_AND_NAME]).toEqual(['v1.a.b.x']);
    expect(keys(shorterCopy)[BY_SCHEMA_AND_NAME]).toEqual(['v1.a.core.b.x']);
    // ... but a namespaced original's key can equal a cluster-scoped one's of another schema.
    const namespaced = cached(dotted, 'x', 'y');
    const clusterScoped = cached(dotted, '', 'x.y');
    expect(keys(namespaced)[BY_SCHEMA_AND_NAME]?.[0]).toBe(keys(clusterScoped)[BY_SCHEMA_AND_NAME]?.[0]);
    const namespacedQuery = originalCopyQuery({ shard: 'shard-1', cluster: 'root:org', schema: dotted, namespace: 'x', name: 'y' });
    expect([namespaced, clusterScoped].filter(namespacedQuery.matches)).toEqual([namespaced]);
    expect([namespaced, clusterScoped].filter((copy) => isCopyOf(copy, 'v1.a.b', 'x.y'))).toEqual([clusterScoped]);
    expect([namespaced, clusterScoped].filter((copy) => isCopyOf(copy, 'v1.a.b', 'y'))).toEqual([namespaced]);
    expect([namespaced, clusterScoped].filter((copy) => isCopyOf(copy, 'v1.a.b', 'y', ''))).toEqual([]);
  });

  it('case 8: a copy under another name than its readable one has the same by-schema-and-name keys', () => {
    for (const [gvr, namespace, object] of [[INSTANCES, '', 'web-1'], [CONFIGMAPS, 'team-a', 'settings']] as const) {
      const readable = cached(gvr, namespace, object);
      const elsewhere = { ...readable, metadata: { ...readable.metadata, name: `x${readable.metadata.name ?? ''}` } };
      expect(keys(elsewhere)[BY_SCHEMA_AND_NAME]).toEqual(keys(readable)[BY_SCHEMA_AND_NAME]);
      expect(keys(readable)[BY_SCHEMA_AND_NAME]?.[0]).toBe(readable.metadata.name);
    }
  });

  it('case 5: index names are unique', () => {
    expect(new Set(cachedObjectIndexes().map(({ name }) => name)).size).toBe(cachedObjectIndexes().length);
  });
});

describe('cachedObjectOrigin', () => {
  it('case 1: reads the full origin, core group back to empty', () => {
    expect(cachedObjectOrigin(cached(CONFIGMAPS, 'team-a', 'settings'))).toEqual({
      shard: 'shard-1',
      cluster: 'root:org',
      identityHash: ID,
      schema: 'v1.configmaps.core',
      gvr: CONFIGMAPS,
      namespace: 'team-a',
      name: 'settings',
    });
  });

  it('case 2: hashed values come back in full', () => {
    const origin = cachedObjectOrigin(cached(LONG_GVR, '', LONG_NAME));
    expect(origin?.gvr).toEqual(LONG_GVR);
    expect(origin?.name).toBe(LONG_NAME);
    expect(origin?.namespace).toBe('');
  });
});
