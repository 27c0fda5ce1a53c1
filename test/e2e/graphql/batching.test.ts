// Batching end to end: a 3-level query over 100 objects makes one read per level. The objects
// form an ownership tree replicated from the embedded source: fleet-1 owns pool-0..9, and pool-k
// owns the instances web-<i> with i % 10 = k (100 instances). The read model of the running app is
// wrapped (its own methods still answer) to count the calls GraphQL makes.

import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectRef, ReadModel } from '../../../src/read/read-model.js';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { gql } from './graphql-http.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GROUP = 'machines.svm.io';
const KINDS = [
  { plural: 'fleets', kind: 'Fleet' },
  { plural: 'pools', kind: 'Pool' },
  { plural: 'instances', kind: 'Instance' },
];
const INSTANCES = `v1alpha1.instances.${GROUP}`;

/** CallCounts records the calls GraphQL makes to the read model (not its calls to itself). */
interface CallCounts {
  getObjects: number[];
  listCachedObjects: number;
  getObject: number;
}

/**
 * countCalls wraps the real read model's methods with counters and returns a restore function.
 * The read model's own calls to itself (getObjects → getObject → listCachedObjects) run inside an
 * outer call and are not counted.
 */
function countCalls(read: ReadModel, counts: CallCounts): () => void {
  const original = { getObjects: read.getObjects, listCachedObjects: read.listCachedObjects, getObject: read.getObject };
  // Whether a call runs inside another counted call is a property of its async context, so calls
  // GraphQL makes concurrently are all counted.
  const inside = new AsyncLocalStorage<true>();
  const counted = <A extends unknown[], R>(fn: (...args: A) => Promise<R>, count: (...args: A) => void) => (...args: A): Promise<R> => {
    if (!inside.getStore()) count(...args);
    return inside.run(true, () => fn.apply(read, args));
  };
  read.getObjects = counted(original.getObjects, (refs: readonly ObjectRef[]) => counts.getObjects.push(refs.length));
  read.listCachedObjects = counted(original.listCachedObjects, () => counts.listCachedObjects++);
  read.getObject = counted(original.getObject, () => counts.getObject++);
  return () => Object.assign(read, original);
}

describe('GraphQL batching: one read per level', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
    const root = app.clusterUrl('root');
    const path = (plural: string) => `${root}/apis/${GROUP}/v1alpha1/${plural}`;
    for (const { plural, kind } of KINDS) {
      expect((await request('POST', `${root}${CRDS}`, crd({ group: GROUP, plural, kind }))).status).toBe(201);
    }
    const owner = (kind: string, body: { metadata: { name: string; uid: string } }) => [{ apiVersion: `${GROUP}/v1alpha1`, kind, name: body.metadata.name, uid: body.metadata.uid }];
    const fleet = (await request('POST', path('fleets'), { metadata: { name: 'fleet-1' } })).body;
    const pools = await Promise.all(Array.from({ length: 10 }, async (_, k) =>
      (await request('POST', path('pools'), { metadata: { name: `pool-${k}`, ownerReferences: owner('Fleet', fleet) } })).body));
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => {
        const i = batch * 10 + j;
        return request('POST', path('instances'), { metadata: { name: `web-${i}`, ownerReferences: owner('Pool', pools[i % 10]) } });
      }));
    }
    for (const { plural } of KINDS) {
      expect((await request('POST', `${root}${CCRS}`, ccr(plural, { group: GROUP, version: 'v1alpha1', resource: plural }))).status).toBe(201);
    }
    await eventually(async () => {
      const counts = Object.fromEntries((await app.app.read.schemas()).map((s) => [s.resource, s.count]));
      expect(counts).toEqual({ fleets: 1, pools: 10, instances: 100 });
      const kinds = (await app.app.read.clusterCachedResources()).map((c) => c.metadata.annotations?.['cache.kcp.io/resource-kind']);
      expect(kinds.sort()).toEqual(['Fleet', 'Instance', 'Pool']);
    });
  });
  afterAll(async () => app?.stop());

  it('case 1: instances → owners → owners over 100 objects: one list, then one batched getObjects per level', async () => {
    const counts: CallCounts = { getObjects: [], listCachedObjects: 0, getObject: 0 };
    const restore = countCalls(app.app.read, counts);
    let res;
    try {
      res = await gql(app.url, `{ cachedObjects(filter: {schema: "${INSTANCES}"}, first: 100) {
        totalCount edges { node { object owners { object owners { object } } } } } }`);
    } finally {
      restore();
    }
    expect(res.body.errors).toBeUndefined();
    const edges = res.body.data.cachedObjects.edges as Array<{ node: { object: { metadata: { name: string } }; owners: Array<{ object: { metadata: { name: string } }; owners: Array<{ object: { metadata: { name: string } } }> }> } }>;
    expect(edges).toHaveLength(100);
    for (const { node } of edges) {
      const i = Number(node.object.metadata.name.slice('web-'.length));
      expect(node.owners.map((o) => o.object.metadata.name)).toEqual([`pool-${i % 10}`]);
      expect(node.owners[0]?.owners.map((o) => o.object.metadata.name)).toEqual(['fleet-1']);
    }
    expect(counts.listCachedObjects).toBe(1); // level 1: the instances
    expect(counts.getObjects).toEqual([10, 1]); // level 2: 100 ownerReferences → the 10 pools; level 3: the fleet
    expect(counts.getObject).toBe(0);
  });

  it('case 2: object(...) lookups of one request (aliases) are one getObjects call', async () => {
    const counts: CallCounts = { getObjects: [], listCachedObjects: 0, getObject: 0 };
    const fields = Array.from({ length: 20 }, (_, i) => `o${i}: object(group: "${GROUP}", version: "v1alpha1", resource: "instances", name: "web-${i}", cluster: "root")`);
    const restore = countCalls(app.app.read, counts);
    let res;
    try {
      res = await gql(app.url, `{ ${fields.join(' ')} missing: object(group: "${GROUP}", version: "v1alpha1", resource: "instances", name: "nope") }`);
    } finally {
      restore();
    }
    expect(Object.keys(res.body.data)).toHaveLength(21);
    expect(res.body.data.o7.metadata.name).toBe('web-7');
    expect(res.body.data.missing).toBeNull();
    expect(res.body.errors).toMatchObject([{ path: ['missing'], extensions: { code: 'NOT_FOUND' } }]);
    expect(counts.getObjects).toEqual([21]);
  });

  it('case 3: an owner deleted from the source disappears from owners (and a stale uid never matches)', async () => {
    await request('DELETE', `${app.clusterUrl('root')}/apis/${GROUP}/v1alpha1/fleets/fleet-1`);
    await eventually(async () => {
      const res = await gql(app.url, `{ cachedObject(name: "v1alpha1.pools.${GROUP}.pool-3", cluster: "root") { owners { object } } }`);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.cachedObject.owners).toEqual([]);
    });
    await request('POST', `${app.clusterUrl('root')}/apis/${GROUP}/v1alpha1/fleets`, { metadata: { name: 'fleet-1' } });
    await eventually(async () => expect((await app.app.read.schemas()).find((s) => s.resource === 'fleets')?.count).toBe(1));
    const res = await gql(app.url, `{ cachedObject(name: "v1alpha1.pools.${GROUP}.pool-3", cluster: "root") { owners { object } } }`);
    expect(res.body.data.cachedObject.owners).toEqual([]); // same name, new uid: not pool-3's owner
  });
});
