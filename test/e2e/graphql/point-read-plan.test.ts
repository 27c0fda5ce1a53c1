// The planned GraphQL point read (src/graphql/point-read-plan.ts) seen from a client: a query of
// one `object(...)` lookup with literal arguments is answered without mercurius' execution, and
// must be indistinguishable from mercurius' answer to the same lookup sent with variables (which
// mercurius executes): status, content type and bytes. Failures go to mercurius and keep their
// documented codes, and planned queries are counted as operations.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const LOOKUP = (name: string) => `group: "${GVR.group}", version: "${GVR.version}", resource: "${GVR.resource}", name: "${name}", cluster: "root"`;
const BY_VARIABLES = 'query ($g: String!, $v: String!, $r: String!, $n: String!, $c: String) { KEY: object(group: $g, version: $v, resource: $r, name: $n, cluster: $c) }';

/** Answer is an HTTP answer of /graphql as bytes. */
interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

async function post(url: string, body: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

function byVariables(url: string, name: string, key = 'object'): Promise<Answer> {
  const query = BY_VARIABLES.replace('KEY: ', key === 'object' ? '' : `${key}: `);
  return post(url, { query, variables: { g: GVR.group, v: GVR.version, r: GVR.resource, n: name, c: 'root' } });
}

async function operationsCounted(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('cachegate_graphql_operations_total{type="query"}'));
  return Number(line?.split(' ').at(-1) ?? 0);
}

describe('the planned GraphQL point read', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
    const root = app.clusterUrl('root');
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    for (const name of ['web-1', 'web-2']) {
      expect((await request('POST', `${root}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`, { metadata: { name, labels: { tier: 'web' } }, spec: { size: 3 } })).status).toBe(201);
    }
    expect((await request('POST', `${root}${CCRS}`, ccr('instances', GVR))).status).toBe(201);
    await eventually(async () => expect(JSON.parse((await byVariables(app.url, 'web-2')).text).data.object?.metadata.name).toBe('web-2'));
  });
  afterAll(async () => app?.stop());

  it('case 1: a found object is answered byte for byte as mercurius answers it, asked again too', async () => {
    const expected = await byVariables(app.url, 'web-1');
    expect(JSON.parse(expected.text).data.object.spec).toEqual({ size: 3 });
    for (let i = 0; i < 3; i++) expect(await post(app.url, { query: `{ object(${LOOKUP('web-1')}) }` })).toEqual(expected);
  });

  it('case 2: an alias names the answer\'s field, as in mercurius\' answer', async () => {
    const expected = await byVariables(app.url, 'web-2', 'machine');
    expect(await post(app.url, { query: `{ machine: object(${LOOKUP('web-2')}) }` })).toEqual(expected);
  });

  it('case 3: a missing object is mercurius\' NOT_FOUND answer, with its location', async () => {
    const planned = await post(app.url, { query: `{ object(${LOOKUP('nope')}) }` });
    expect(planned.status).toBe(200);
    expect(JSON.parse(planned.text)).toMatchObject({ data: { object: null }, errors: [{ path: ['object'], locations: [{ line: 1, column: 3 }], extensions: { code: 'NOT_FOUND' } }] });
  });

  it('case 4: an operation name the document does not have is refused as mercurius refuses it', async () => {
    const answer = await post(app.url, { query: `query One { object(${LOOKUP('web-1')}) }`, operationName: 'Two' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).errors[0].message).toMatch(/Two/);
    const named = await post(app.url, { query: `query One { object(${LOOKUP('web-1')}) }`, operationName: 'One' });
    expect(JSON.parse(named.text).data.object.metadata.name).toBe('web-1');
  });

  it('case 5: a document that fails validation gets mercurius\' validation error, asked twice', async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await post(app.url, { query: `{ object(${LOOKUP('web-1')}, color: "red") }` });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    }
  });

  it('case 6: planned queries are counted as query operations', async () => {
    const before = await operationsCounted(app.url);
    for (let i = 0; i < 3; i++) await post(app.url, { query: `{ object(${LOOKUP('web-1')}) }` });
    expect(await operationsCounted(app.url)).toBe(before + 3);
  });
});
