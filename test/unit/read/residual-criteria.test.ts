import { describe, expect, it } from 'vitest';
import { wrapCachedObject } from '../../../src/cachedobjects/wrap-cached-object.js';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { planFilter } from '../../../src/read/filter-plan.js';
import { BY_SCHEMA_AND_NAME, cachedObjectIndexes } from '../../../src/cachedobjects/cached-object-indexes.js';
import type { CachedObjectFilter } from '../../../src/read/read-model.js';

const GVR = { group: 'example.com', version: 'v1', resource: 'widgets' };

function copy(shard: string, cluster: string, namespace: string, name: string, gvr = GVR): KubeObject {
  const original = { apiVersion: `${gvr.group}/${gvr.version}`, kind: 'Widget', metadata: { name, ...(namespace ? { namespace } : {}), labels: { app: 'web' } } };
  return wrapCachedObject({ original, gvr, shard, cluster, identityHash: '', name: `${gvr.version}.${gvr.resource}.${gvr.group}.${namespace}.${name}` });
}

function indexValues(obj: KubeObject): readonly string[] {
  return cachedObjectIndexes().find(({ name }) => name === BY_SCHEMA_AND_NAME)?.fn(obj) ?? [];
}

const SAMPLES: readonly KubeObject[] = [
  copy('s1', 'root', 'ns', 'a'), copy('s1', 'other', 'ns', 'a'), copy('s2', 'root', 'ns', 'a'),
  copy('s1', 'root', 'ns2', 'a'), copy('s1', 'root', 'ns', 'b'), copy('s1', 'root', 'ns', 'a', { ...GVR, version: 'v2' }),
  // By-schema-and-name keys are not unique: these two share one with ns/a (v1.widgets.example.com.ns.a)
  // and with the any-namespace alias of a (v1.widgets.example.com.a).
  copy('s1', 'root', '', 'a', { ...GVR, group: 'example.com.ns' }), copy('s1', 'root', '', 'com.a', { ...GVR, group: 'example' }),
];

// Each case: a filter, whether the store is left a per-object check (false = index and location
// answer it all). Either way, the plan's store query keeps exactly the objects its full criteria keep.
describe('planFilter: what the store still checks after index and location', () => {
  const cases: Array<{ name: string; filter: CachedObjectFilter; residual: boolean; refuses?: number[] }> = [
    { name: 'schema in one location: nothing left', filter: { shard: 's1', cluster: 'root', schema: 'v1.widgets.example.com' }, residual: false },
    { name: 'group, version and resource: the schema index answers them', filter: { group: 'example.com', version: 'v1', resource: 'widgets' }, residual: false },
    { name: 'schema without shard: the cluster is checked', filter: { cluster: 'root', schema: 'v1.widgets.example.com' }, residual: true, refuses: [1] },
    { name: 'a schema named directly and a group: the group is checked', filter: { schema: 'v1.widgets.example.com', group: 'other.io' }, residual: true, refuses: [0, 1, 2, 3, 4] },
    { name: 'name and namespace in a schema: schema and name are checked too (the key is shared)', filter: { group: 'example.com', version: 'v1', resource: 'widgets', namespace: 'ns', name: 'a' }, residual: true, refuses: [6] },
    { name: 'name without namespace (the alias key): schema and name are checked', filter: { schema: 'v1.widgets.example.com', name: 'a' }, residual: true, refuses: [7] },
    { name: 'name with the empty namespace: the namespace is checked', filter: { schema: 'v1.widgets.example.com', name: 'a', namespace: '' }, residual: true, refuses: [0, 1, 2, 3, 7] },
    { name: 'a namespace alone', filter: { namespace: 'ns' }, residual: true },
    { name: 'a cluster alone', filter: { cluster: 'root' }, residual: true },
  ];
  cases.forEach((c, i) => {
    it(`case ${i + 1}: ${c.name}`, () => {
      const plan = planFilter(c.filter);
      expect(plan.scope.where !== undefined).toBe(c.residual);
      const where = plan.scope.where?.matches ?? (() => true);
      // Whatever the full criteria accept, the residual accepts.
      for (const obj of SAMPLES) {
        if (plan.matches(obj)) expect(where(obj)).toBe(true);
      }
      // Objects the index value holds that the criteria refuse: the residual refuses them too.
      for (const i of c.refuses ?? []) {
        const sample = SAMPLES[i] as KubeObject;
        if (plan.index?.name === BY_SCHEMA_AND_NAME) expect(indexValues(sample)).toContain(plan.index.value);
        expect(where(sample)).toBe(false);
      }
    });
  });
});
