// GraphQL mutations end to end, read-your-writes through the overlay: a real cachegate
// with the overlay on for machines.svm.io/v1alpha1/Instance, the CRD instances.machines.svm.io in
// the embedded source's `root` cluster and a CCR replicating the instances labelled
// replicated=yes. Every write goes through POST /graphql, and every read right after it too
// (`object(...)` or `cachedObjects`), with no wait in between: what is counted is what the writer
// would have seen. Odd-numbered objects are written without that label, so the cache never holds
// them and only the overlay can answer for them (deterministically, whatever replication's
// speed); even-numbered ones are replicated, so their reads merge the cache's copy with the
// overlay's.

import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlPlugin } from '../../../src/graphql/graphql-plugin.js';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { gql } from './graphql-http.js';
import type { GraphqlResponse } from './graphql-http.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';
const TARGET = 'group: "machines.svm.io", version: "v1alpha1", resource: "instances", cluster: "root"';

const OBJECT = `query Get($name: String!) { object(${TARGET}, name: $name) }`;
const CREATE = `mutation Create($object: JSON!, $dryRun: Boolean) { createObject(${TARGET}, object: $object, dryRun: $dryRun) }`;
const UPDATE = `mutation Update($object: JSON!) { updateObject(${TARGET}, object: $object) }`;
const PATCH = `mutation Patch($name: String!, $patch: JSON!, $patchType: PatchType) { patchObject(${TARGET}, name: $name, patch: $patch, patchType: $patchType) }`;
const UPDATE_STATUS = `mutation UpdateStatus($object: JSON!) { updateObjectStatus(${TARGET}, object: $object) }`;
const PATCH_STATUS = `mutation PatchStatus($name: String!, $patch: JSON!) { patchObjectStatus(${TARGET}, name: $name, patch: $patch) }`;
const DELETE = `mutation Delete($name: String!) { deleteObject(${TARGET}, name: $name) }`;
const DELETE_ALL = `mutation DeleteAll($selector: String) { deleteObjects(${TARGET}, labelSelector: $selector) }`;
const LIST = `query List($selector: String!) { cachedObjects(filter: {schema: "${SCHEMA}", cluster: "root", labelSelector: $selector}, first: 500) {
  totalCount edges { node { object } } } }`;

/** Instance is the part of an instance the assertions read. */
interface Instance {
  readonly metadata: { readonly name: string; readonly resourceVersion: string; readonly uid: string; readonly labels?: Record<string, string> };
  readonly spec?: { readonly size?: number; readonly [field: string]: unknown };
  readonly status?: Record<string, unknown>;
}

const instance = (name: string, size: number, labels: Record<string, string> = {}): Record<string, unknown> => ({
  apiVersion: 'machines.svm.io/v1alpha1', kind: 'Instance', metadata: { name, labels }, spec: { size },
});

/** replicated labels even-numbered objects for the CCR's selector; odd ones stay overlay-only. */
const replicated = (i: number): Record<string, string> => (i % 2 === 0 ? { replicated: 'yes' } : {});

/** ok expects a response without errors and returns its data. */
function ok(res: GraphqlResponse, what: string): Record<string, unknown> {
  expect(res.status, what).toBe(200);
  expect(res.body.errors, `${what}: ${JSON.stringify(res.body.errors)}`).toBeUndefined();
  return res.body.data;
}

describe('GraphQL mutations: read-your-writes through the overlay', () => {
  let app: TestApp;
  const get = (name: string): Promise<GraphqlResponse> => gql(app.url, OBJECT, { name });
  const listNames = async (selector: string): Promise<string[]> => {
    const data = ok(await gql(app.url, LIST, { selector }), `list ${selector}`) as { cachedObjects: { edges: Array<{ node: { object: Instance } }> } };
    return data.cachedObjects.edges.map((e) => e.node.object.metadata.name).sort();
  };

  beforeAll(async () => {
    app = await startTestApp({ cache: { enabled: true, gvks: ['machines.svm.io/v1alpha1/Instance'], ttl: '2m' } });
    const root = app.clusterUrl('root');
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    expect((await request('POST', `${root}/apis/machines.svm.io/v1alpha1/instances`, instance('seed', 0, { replicated: 'yes' }))).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('instances', GVR, { replicated: 'yes' }))).status).toBe(201);
    // Replication runs: the seed object, written to the source directly, has reached the cache.
    await eventually(async () => {
      const summary = (await app.app.read.schemas()).find((s) => s.name === SCHEMA);
      expect(summary?.count).toBe(1);
    });
  });
  afterAll(async () => app?.stop());

  it('case 1: 60 createObject mutations, each followed at once by object(...): 0 misses; a list right after has all 60', async () => {
    const misses: string[] = [];
    for (let i = 1; i <= 60; i++) {
      const name = `gq-${i}`;
      const created = ok(await gql(app.url, CREATE, { object: instance(name, i, { batch: 'gql', n: String(i), ...replicated(i) }) }), `create ${name}`).createObject as Instance;
      expect(created.metadata.name).toBe(name);
      expect(created.metadata.resourceVersion).toMatch(/^\d+$/);
      const read = await get(name);
      const found = read.body.data?.object as Instance | null | undefined;
      if (read.body.errors !== undefined || found?.metadata.uid !== created.metadata.uid) misses.push(name);
    }
    expect(misses).toEqual([]);
    expect(await listNames('batch=gql')).toHaveLength(60);
  });

  it('case 2: 40 patchObject mutations (merge), each followed at once by object(...): 0 stale reads', async () => {
    const stale: string[] = [];
    for (let i = 1; i <= 40; i++) {
      const name = `gq-${i}`;
      const patched = ok(await gql(app.url, PATCH, { name, patch: { spec: { size: 1000 + i } } }), `patch ${name}`).patchObject as Instance;
      expect(patched.spec?.size).toBe(1000 + i);
      const found = (await get(name)).body.data?.object as Instance | null | undefined;
      if (found?.spec?.size !== 1000 + i || found.metadata.resourceVersion !== patched.metadata.resourceVersion) stale.push(name);
    }
    expect(stale).toEqual([]);
  });

  it('case 3: a JSON patch (patchType: JSON) is read back at once', async () => {
    const patch = [{ op: 'replace', path: '/spec/size', value: 7 }, { op: 'add', path: '/spec/colour', value: 'red' }];
    const patched = ok(await gql(app.url, PATCH, { name: 'gq-5', patch, patchType: 'JSON' }), 'json patch').patchObject as Instance;
    expect(patched.spec).toEqual({ size: 7, colour: 'red' });
    const found = ok(await get('gq-5'), 'get gq-5').object as Instance;
    expect(found.spec).toEqual({ size: 7, colour: 'red' });
    expect(found.metadata.resourceVersion).toBe(patched.metadata.resourceVersion);
  });

  it('case 4: 30 deleteObject mutations, each followed at once by object(...): 0 still readable (null + NOT_FOUND)', async () => {
    const readable: string[] = [];
    for (let i = 31; i <= 60; i++) {
      const name = `gq-${i}`;
      const deleted = ok(await gql(app.url, DELETE, { name }), `delete ${name}`).deleteObject as Instance | null;
      if (deleted !== null) expect(deleted.metadata.name).toBe(name);
      const read = await get(name);
      const notFound = read.body.data?.object === null && read.body.errors?.[0]?.extensions?.code === 'NOT_FOUND';
      if (!notFound) readable.push(name);
    }
    expect(readable).toEqual([]);
    expect(await listNames('batch=gql')).toHaveLength(30);
  });

  it('case 5: updateObject with the current resourceVersion replaces the object, read back at once', async () => {
    for (const name of ['gq-11', 'gq-12']) {
      const current = ok(await get(name), `get ${name}`).object as Instance;
      const next = { ...current, spec: { size: 66, replaced: true } };
      const updated = ok(await gql(app.url, UPDATE, { object: next }), `update ${name}`).updateObject as Instance;
      expect(updated.spec).toEqual({ size: 66, replaced: true });
      const found = ok(await get(name), `get ${name}`).object as Instance;
      expect(found.spec, name).toEqual({ size: 66, replaced: true });
      expect(found.metadata.resourceVersion, name).toBe(updated.metadata.resourceVersion);
    }
  });

  it('case 6: a stale updateObject is error CONFLICT (the source\'s 409) and the newer write stays readable', async () => {
    const before = ok(await get('gq-7'), 'get gq-7').object as Instance;
    const newer = ok(await gql(app.url, PATCH, { name: 'gq-7', patch: { spec: { size: 77 } } }), 'patch gq-7').patchObject as Instance;
    const res = await gql(app.url, UPDATE, { object: { ...before, spec: { size: -1 } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull(); // updateObject is non-null, so its error nulls the data
    expect(res.body.errors).toMatchObject([{ path: ['updateObject'], extensions: { code: 'CONFLICT' } }]);
    const found = ok(await get('gq-7'), 'get gq-7').object as Instance;
    expect(found.spec?.size).toBe(77);
    expect(found.metadata.resourceVersion).toBe(newer.metadata.resourceVersion);
  });

  it('case 7: patchObjectStatus is read back at once, and leaves the spec alone', async () => {
    for (const [name, size] of [['gq-9', 1009], ['gq-8', 1008]] as const) {
      const patched = ok(await gql(app.url, PATCH_STATUS, { name, patch: { status: { phase: 'Running' } } }), `patch status ${name}`).patchObjectStatus as Instance;
      expect(patched.status).toEqual({ phase: 'Running' });
      const found = ok(await get(name), `get ${name}`).object as Instance;
      expect(found.status, name).toEqual({ phase: 'Running' });
      expect(found.spec?.size, name).toBe(size);
      expect(found.metadata.resourceVersion, name).toBe(patched.metadata.resourceVersion);
    }
  });

  it('case 8: updateObjectStatus is read back at once', async () => {
    for (const name of ['gq-9', 'gq-8']) {
      const current = ok(await get(name), `get ${name}`).object as Instance;
      const updated = ok(await gql(app.url, UPDATE_STATUS, { object: { ...current, status: { phase: 'Stopped' } } }), `update status ${name}`).updateObjectStatus as Instance;
      expect(updated.status).toEqual({ phase: 'Stopped' });
      const found = ok(await get(name), `get ${name}`).object as Instance;
      expect(found.status, name).toEqual({ phase: 'Stopped' });
      expect(found.metadata.resourceVersion, name).toBe(updated.metadata.resourceVersion);
    }
  });

  it('case 9: deleteObjects by labelSelector hides the matching objects at once and leaves the others', async () => {
    for (let i = 1; i <= 6; i++) {
      ok(await gql(app.url, CREATE, { object: instance(`sel-${i}`, i, { team: i <= 3 ? 'a' : 'b', ...replicated(i) }) }), `create sel-${i}`);
    }
    const res = ok(await gql(app.url, DELETE_ALL, { selector: 'team=a' }), 'deleteObjects').deleteObjects as { kind: string; items: Instance[] };
    expect(res.kind).toBe('List');
    expect(res.items.map((item) => item.metadata.name).sort()).toEqual(['sel-1', 'sel-2', 'sel-3']);
    for (const name of ['sel-1', 'sel-2', 'sel-3']) {
      const read = await get(name);
      expect(read.body.data?.object, name).toBeNull();
      expect(read.body.errors?.[0]?.extensions?.code, name).toBe('NOT_FOUND');
    }
    for (const name of ['sel-4', 'sel-5', 'sel-6']) expect((ok(await get(name), name).object as Instance).metadata.name).toBe(name);
    expect(await listNames('team')).toEqual(['sel-4', 'sel-5', 'sel-6']);
    expect(await listNames('batch=gql')).toHaveLength(30);
  });

  it('case 10: a create of a taken name is the source\'s 409 (ALREADY_EXISTS); bad arguments are BAD_REQUEST', async () => {
    const taken = await gql(app.url, CREATE, { object: instance('gq-1', 1) });
    expect(taken.body.errors).toMatchObject([{ path: ['createObject'], extensions: { code: 'ALREADY_EXISTS' } }]);
    const notAnObject = await gql(app.url, CREATE, { object: [1, 2] });
    expect(notAnObject.body.errors).toMatchObject([{ path: ['createObject'], extensions: { code: 'BAD_REQUEST' } }]);
    const mergeArray = await gql(app.url, PATCH, { name: 'gq-1', patch: [{ op: 'remove', path: '/spec' }] });
    expect(mergeArray.body.errors).toMatchObject([{ path: ['patchObject'], extensions: { code: 'BAD_REQUEST' } }]);
    const otherName = await gql(app.url, `mutation { updateObject(${TARGET}, name: "gq-2", object: {metadata: {name: "gq-3"}}) }`);
    expect(otherName.body.errors).toMatchObject([{ path: ['updateObject'], extensions: { code: 'BAD_REQUEST' } }]);
    const missing = await gql(app.url, PATCH, { name: 'nope', patch: { spec: {} } });
    expect(missing.body.errors).toMatchObject([{ path: ['patchObject'], extensions: { code: 'NOT_FOUND' } }]);
  });

  it('case 11: a dry-run createObject answers the object but records nothing: object(...) stays NOT_FOUND', async () => {
    const res = ok(await gql(app.url, CREATE, { object: instance('dry-1', 1), dryRun: true }), 'dry run').createObject as Instance;
    expect(res.metadata.name).toBe('dry-1');
    const read = await get('dry-1');
    expect(read.body.data?.object).toBeNull();
    expect(read.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('case 12: mutations of one document run in order: create, patch and read in one request', async () => {
    const res = await gql(app.url, `mutation {
      c: createObject(${TARGET}, object: {metadata: {name: "seq-1"}, spec: {size: 1}})
      p: patchObject(${TARGET}, name: "seq-1", patch: {spec: {size: 2}})
      d: deleteObject(${TARGET}, name: "seq-1")
    }`);
    const data = ok(res, 'sequence') as { c: Instance; p: Instance };
    expect(data.c.spec?.size).toBe(1);
    expect(data.p.spec?.size).toBe(2);
    expect((await get('seq-1')).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('case 13: a GraphQL facade without a write service serves the Mutation type and answers METHOD_NOT_ALLOWED', async () => {
    const readOnly = Fastify();
    try {
      await readOnly.register(graphqlPlugin, { read: app.app.read, graphiql: false });
      const url = await readOnly.listen({ port: 0, host: '127.0.0.1' });
      const res = await gql(url, CREATE, { object: instance('ro-1', 1) });
      expect(res.status).toBe(200);
      expect(res.body.errors).toMatchObject([{ path: ['createObject'], message: 'writes are not configured', extensions: { code: 'METHOD_NOT_ALLOWED' } }]);
      expect((await gql(url, OBJECT, { name: 'seed' })).body.data.object.metadata.name).toBe('seed');
    } finally {
      await readOnly.close();
    }
    expect((await get('ro-1')).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
