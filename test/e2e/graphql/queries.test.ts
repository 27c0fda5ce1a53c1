// GraphQL queries end to end: 12 instances replicated from the embedded source (CRD
// instances.machines.svm.io, objects web-server-1..12 labelled n=<i>, a CCR without selector),
// plus web-server-1 in a second logical cluster, read through POST /graphql.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { gql } from './graphql-http.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';
const NODE_FIELDS = 'apiVersion kind metadata { name namespace uid resourceVersion creationTimestamp labels annotations } spec { raw } object shard cluster';
const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

/** Page is a connection as the PageInfo cases read it. */
interface Page {
  readonly edges: ReadonlyArray<{ readonly cursor: string; readonly node: { readonly metadata: { readonly name: string } } }>;
  readonly pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** pageInfoOf is what PageInfo must say of a page's edges: its cursors are the first and the last edge's. */
function pageInfoOf(page: Page, has: { next: boolean; previous: boolean }): Page['pageInfo'] {
  return { hasNextPage: has.next, hasPreviousPage: has.previous, startCursor: page.edges[0]?.cursor ?? null, endCursor: page.edges.at(-1)?.cursor ?? null };
}

describe('GraphQL queries over 12 replicated instances', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
    for (const cluster of ['root', 'other']) {
      const base = app.clusterUrl(cluster);
      expect((await request('POST', `${base}${CRDS}`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    }
    const instances = `${app.clusterUrl('root')}/apis/machines.svm.io/v1alpha1/instances`;
    await Promise.all(Array.from({ length: 12 }, (_, i) => request('POST', instances, {
      metadata: { name: `web-server-${i + 1}`, labels: { n: String(i + 1) } }, spec: { size: i + 1 },
    })));
    await request('POST', `${app.clusterUrl('other')}/apis/machines.svm.io/v1alpha1/instances`, { metadata: { name: 'web-server-1' }, spec: { size: 100 } });
    for (const cluster of ['root', 'other']) {
      expect((await request('POST', `${app.clusterUrl(cluster)}${CCRS}`, ccr('instances', GVR))).status).toBe(201);
    }
    await eventually(async () => {
      const summary = (await app.app.read.schemas()).find((s) => s.name === SCHEMA);
      expect(summary?.count).toBe(13);
    });
  });
  afterAll(async () => app?.stop());

  it('case 1: object(...) returns the original, as the read model (REST) and the source have it', async () => {
    const res = await gql(app.url, '{ object(group: "machines.svm.io", version: "v1alpha1", resource: "instances", name: "web-server-3", cluster: "root") }');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const source = (await request('GET', `${app.clusterUrl('root')}/apis/machines.svm.io/v1alpha1/instances/web-server-3`)).body;
    const viaReadModel = await app.app.read.getObject({ ...GVR, name: 'web-server-3', cluster: 'root' });
    expect(res.body.data.object).toEqual(source);
    expect(res.body.data.object).toEqual(JSON.parse(JSON.stringify(viaReadModel.object)));
  });

  it('case 2: object without cluster works when unique, and is CONFLICT listing the clusters when not', async () => {
    const unique = await gql(app.url, '{ object(group: "machines.svm.io", version: "v1alpha1", resource: "instances", name: "web-server-2") }');
    expect(unique.body.data.object.metadata.name).toBe('web-server-2');
    const ambiguous = await gql(app.url, '{ object(group: "machines.svm.io", version: "v1alpha1", resource: "instances", name: "web-server-1") }');
    expect(ambiguous.status).toBe(200);
    expect(ambiguous.body.data.object).toBeNull();
    expect(ambiguous.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(ambiguous.body.errors[0].extensions.causes.map((c: { message: string }) => c.message).sort())
      .toEqual(['shard=embedded cluster=other', 'shard=embedded cluster=root']);
  });

  it('case 3: a missing object is null with error NOT_FOUND (HTTP 200, path object)', async () => {
    const res = await gql(app.url, '{ object(group: "machines.svm.io", version: "v1alpha1", resource: "instances", name: "nope", cluster: "root") }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ object: null });
    expect(res.body.errors).toMatchObject([{ path: ['object'], extensions: { code: 'NOT_FOUND' } }]);
  });

  it('case 4: cachedObject by name returns the CachedObject with its unwrapped original', async () => {
    const res = await gql(app.url, `{ cachedObject(name: "${SCHEMA}.web-server-4", cluster: "root") { ${NODE_FIELDS} } }`);
    const node = res.body.data.cachedObject;
    expect(node).toMatchObject({ apiVersion: 'cache.kcp.io/v1alpha1', kind: 'CachedObject', shard: 'embedded', cluster: 'root' });
    expect(node.metadata.name).toBe(`${SCHEMA}.web-server-4`);
    expect(node.metadata.labels['cache.kcp.io/object-original-name']).toBe('web-server-4');
    expect(node.object).toEqual(node.spec.raw);
    expect(node.object.spec).toEqual({ size: 4 });
  });

  it('case 5: cachedObjects with labelSelector "n in (1,2,3)" returns 3', async () => {
    const res = await gql(app.url, `{ cachedObjects(filter: {schema: "${SCHEMA}", labelSelector: "n in (1,2,3)"}) { totalCount edges { node { object } } } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.cachedObjects.totalCount).toBe(3);
    const names = res.body.data.cachedObjects.edges.map((e: { node: { object: { metadata: { name: string } } } }) => e.node.object.metadata.name);
    expect(names.sort()).toEqual(['web-server-1', 'web-server-2', 'web-server-3']);
  });

  it('case 6: first: 5 pages through the 12 in 3 pages, totalCount 12, no duplicates', async () => {
    const query = `query Page($after: String) { cachedObjects(filter: {schema: "${SCHEMA}", cluster: "root"}, first: 5, after: $after) {
      totalCount pageInfo { hasNextPage endCursor } edges { cursor node { metadata { name } } } } }`;
    const names: string[] = [];
    const sizes: number[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const res = await gql(app.url, query, { after });
      expect(res.body.errors).toBeUndefined();
      const connection = res.body.data.cachedObjects;
      expect(connection.totalCount).toBe(12);
      sizes.push(connection.edges.length);
      names.push(...connection.edges.map((e: { node: { metadata: { name: string } } }) => e.node.metadata.name));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(sizes).toEqual([5, 5, 2]);
    expect(new Set(names).size).toBe(12);
  });

  it('case 7: any edge cursor resumes right after that edge', async () => {
    const query = `query Page($after: String) { cachedObjects(filter: {schema: "${SCHEMA}", cluster: "root"}, first: 4, after: $after) {
      edges { cursor node { metadata { name } } } } }`;
    const all = (await gql(app.url, query.replace('first: 4', 'first: 12'), { after: null })).body.data.cachedObjects.edges;
    const third = all[2];
    const next = (await gql(app.url, query, { after: third.cursor })).body.data.cachedObjects.edges;
    expect(next.map((e: { node: { metadata: { name: string } } }) => e.node.metadata.name))
      .toEqual(all.slice(3, 7).map((e: { node: { metadata: { name: string } } }) => e.node.metadata.name));
  });

  it('case 8: schemas lists the schema with per-cluster counts', async () => {
    const res = await gql(app.url, '{ schemas { name group version resource count clusters { shard cluster count } } }');
    const schema = res.body.data.schemas.find((s: { name: string }) => s.name === SCHEMA);
    expect(schema).toEqual({
      name: SCHEMA, group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances', count: 13,
      clusters: [{ shard: 'embedded', cluster: 'other', count: 1 }, { shard: 'embedded', cluster: 'root', count: 12 }],
    });
  });

  it('case 9: Schema.objects pages the schema\'s CachedObjects; clusterCachedResources lists both CCRs', async () => {
    const res = await gql(app.url, '{ schemas { name objects(first: 2) { totalCount edges { node { cluster } } } } clusterCachedResources }');
    const schema = res.body.data.schemas.find((s: { name: string }) => s.name === SCHEMA);
    expect(schema.objects.totalCount).toBe(13);
    expect(schema.objects.edges).toHaveLength(2);
    const ccrs = res.body.data.clusterCachedResources.filter((c: { spec: { resource: string } }) => c.spec.resource === 'instances');
    expect(ccrs).toHaveLength(2);
  });

  it('case 10: an unparsable query is HTTP 400 with GRAPHQL_PARSE_FAILED, an invalid one with GRAPHQL_VALIDATION_FAILED', async () => {
    const unparsable = await gql(app.url, '{ schemas { name ');
    expect(unparsable.status).toBe(400);
    expect(unparsable.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const invalid = await gql(app.url, '{ schemas { name colour } }');
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0]).toMatchObject({ message: expect.stringContaining('colour'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const badVariable = await gql(app.url, 'query Q($n: Int) { cachedObjects(first: $n) { totalCount } }', { n: 'many' });
    expect(badVariable.status).toBe(400);
    expect(badVariable.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const notJson = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions.code).toBe('BAD_REQUEST');
  });

  it('case 11: a too-deep query is HTTP 400 with QUERY_TOO_DEEP', async () => {
    const res = await gql(app.url, '{ cachedObjects { edges { node { owners { owners { owners { owners { metadata { name } } } } } } } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_DEEP', depth: 9, limit: 8 });
  });

  it('case 12: a too-costly query is HTTP 400 with QUERY_TOO_COSTLY', async () => {
    const wide = Array.from({ length: 50 }, (_, i) => `a${i}: cachedObjects(first: 500) { edges { node { metadata { name uid } } } }`).join(' ');
    const res = await gql(app.url, `{ ${wide} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COSTLY', limit: 100_000 });
  });

  it('case 13: bad arguments are field errors with BAD_REQUEST (HTTP 200): first out of range, a bad cursor, a bad selector', async () => {
    for (const args of ['first: 501', 'first: 0', 'after: "not-a-cursor"', `filter: {schema: "${SCHEMA}", labelSelector: "n in (1"}`]) {
      const res = await gql(app.url, `{ cachedObjects(${args}) { totalCount } }`);
      expect(res.status, args).toBe(200);
      expect(res.body.data, args).toBeNull(); // cachedObjects is non-null, so its error nulls the data
      expect(res.body.errors, args).toMatchObject([{ path: ['cachedObjects'], extensions: { code: 'BAD_REQUEST' } }]);
    }
  });

  it('case 14: GraphiQL is served at /graphiql', async () => {
    const res = await fetch(`${app.url}/graphiql`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  // Inputs the HTTP fuzz test (test/fuzz) found answered with 500: each is the client's mistake.
  it('case 15: malformed requests are HTTP 400, never 500: a JSON query, non-object variables, an unknown operation, a subscription', async () => {
    const get = async (q: string): Promise<{ status: number; code: unknown }> => {
      const res = await fetch(`${app.url}/graphql?${q}`);
      return { status: res.status, code: ((await res.json()) as { errors?: Array<{ extensions?: { code?: unknown } }> }).errors?.[0]?.extensions?.code };
    };
    expect(await get('query=6')).toEqual({ status: 400, code: 'GRAPHQL_PARSE_FAILED' });
    expect(await get('query=%5B%5D')).toEqual({ status: 400, code: 'GRAPHQL_PARSE_FAILED' });
    expect(await get('query=%7B__typename%7D&variables=false')).toEqual({ status: 400, code: 'BAD_REQUEST' });
    expect(await get('query=%7B__typename%7D&variables=')).toEqual({ status: 400, code: 'BAD_REQUEST' });
    expect(await get('query=%7B__typename%7D&variables=%7B%7D')).toEqual({ status: 200, code: undefined });
    const unknownOperation = await fetch(`${app.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ schemas { name } }', operationName: 'Nope' }),
    });
    expect(unknownOperation.status).toBe(400);
    const subscription = await gql(app.url, 'subscription { cachedObjectEvents { type } }');
    expect(subscription.status).toBe(400);
    expect(subscription.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('case 16: PageInfo of the first, a middle and the last page: previous only after a cursor, next until the end, start and end cursors', async () => {
    const query = `query Page($after: String) { cachedObjects(filter: {schema: "${SCHEMA}", cluster: "root"}, first: 5, after: $after) {
      ${PAGE_INFO} edges { cursor node { metadata { name } } } } }`;
    const read = async (after: string | null): Promise<Page> => (await gql(app.url, query, { after })).body.data.cachedObjects;
    const first = await read(null);
    expect(first.pageInfo).toEqual(pageInfoOf(first, { next: true, previous: false }));
    const middle = await read(first.pageInfo.endCursor);
    expect(middle.pageInfo).toEqual(pageInfoOf(middle, { next: true, previous: true }));
    // startCursor is a cursor like any other: as `after` it resumes right after the page's first
    // edge. Read before the last page, for serving the last page ends the list's snapshot.
    const resumed = await read(middle.pageInfo.startCursor);
    const last = await read(middle.pageInfo.endCursor);
    expect(last.edges).toHaveLength(2);
    expect(last.pageInfo).toEqual(pageInfoOf(last, { next: false, previous: true }));
    expect(resumed.edges.map((e) => e.node.metadata.name)).toEqual([...middle.edges.slice(1), ...last.edges.slice(0, 1)].map((e) => e.node.metadata.name));
  });

  it('case 17: PageInfo of an empty result: no previous or next page, null cursors', async () => {
    const res = await gql(app.url, `{ cachedObjects(filter: {schema: "${SCHEMA}", labelSelector: "n in (99)"}) { totalCount edges { cursor } ${PAGE_INFO} } }`);
    expect(res.body.data.cachedObjects).toEqual({
      totalCount: 0, edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
  });

  it('case 18: PageInfo of the empty page after the last edge, and of Schema.objects', async () => {
    const all = (await gql(app.url, `{ cachedObjects(filter: {schema: "${SCHEMA}", cluster: "root"}, first: 12) { edges { cursor } } }`)).body.data.cachedObjects;
    const past = await gql(app.url, `query Page($after: String) { cachedObjects(filter: {schema: "${SCHEMA}", cluster: "root"}, after: $after) { edges { cursor } ${PAGE_INFO} } }`,
      { after: all.edges.at(-1).cursor });
    expect(past.body.data.cachedObjects).toEqual({ edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null } });
    const res = await gql(app.url, `{ schemas { name objects(first: 2) { ${PAGE_INFO} edges { cursor node { metadata { name } } } } } }`);
    const objects: Page = res.body.data.schemas.find((s: { name: string }) => s.name === SCHEMA).objects;
    expect(objects.pageInfo).toEqual(pageInfoOf(objects, { next: true, previous: false }));
  });

  it('case 19: a document answers alike on its first, second and later runs (mercurius compiles it once seen): data, field errors, bad variables', async () => {
    // Fresh documents (an alias no other case uses), so their first run is in this case.
    const read = `query Read($name: String!) { found: object(group: "machines.svm.io", version: "v1alpha1", resource: "instances", name: $name, cluster: "root") }`;
    const runs = async (query: string, variables: Record<string, unknown>): Promise<Array<{ status: number; body: unknown }>> => {
      const out: Array<{ status: number; body: unknown }> = [];
      for (let run = 0; run < 4; run++) {
        const res = await gql(app.url, query, variables);
        out.push({ status: res.status, body: res.body });
      }
      return out;
    };
    const present = await runs(read, { name: 'web-server-3' });
    expect(present[0]).toMatchObject({ status: 200, body: { data: { found: { metadata: { name: 'web-server-3' } } } } });
    for (const later of present.slice(1)) expect(later).toEqual(present[0]);
    const missing = await runs(read.replace('Read', 'ReadMissing'), { name: 'absent' });
    expect(missing[0]).toMatchObject({ status: 200, body: { data: { found: null }, errors: [{ path: ['found'], extensions: { code: 'NOT_FOUND' } }] } });
    for (const later of missing.slice(1)) expect(later).toEqual(missing[0]);
    // Bad variables: the second run is the one mercurius compiles, which checks them itself.
    const badVariables = await runs(read.replace('Read', 'ReadBadVariables'), { name: 7 });
    for (const run of badVariables) {
      expect(run.status).toBe(400);
      expect(run.body).toMatchObject({ errors: [{ message: expect.stringContaining('$name'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
    }
  });
});
