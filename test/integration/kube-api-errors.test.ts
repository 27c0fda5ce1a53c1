// The embedded API's answers to bad or conflicting requests, over real HTTP: each is a
// Kubernetes Status with the HTTP code of its reason.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, request } from '../helpers/kube-http.js';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';

describe('kube API errors', () => {
  let app: TestApp;
  let cm: string;
  let widgets: string;

  beforeAll(async () => {
    app = await startTestApp();
    cm = `${app.clusterUrl()}/api/v1/namespaces/default/configmaps`;
    widgets = `${app.clusterUrl()}/apis/example.com/v1/widgets`;
    expect((await request('POST', `${app.clusterUrl()}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd({ group: 'example.com', plural: 'widgets', kind: 'Widget', versions: ['v1'] }))).status).toBe(201);
    expect((await request('POST', widgets, { metadata: { name: 'w1' }, spec: { a: 1 } })).status).toBe(201);
  });
  afterAll(async () => app?.stop());

  it('case 1: PUT with a stale resourceVersion is 409 Conflict', async () => {
    const created = await request('POST', cm, { metadata: { name: 'stale' }, data: { a: '1' } });
    const first = await request('PUT', `${cm}/stale`, { ...created.body, data: { a: '2' } });
    expect(first.status).toBe(200);
    const second = await request('PUT', `${cm}/stale`, { ...created.body, data: { a: '3' } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409 });
    expect(second.body.message).toContain('the object has been modified');
  });

  it('case 2: an invalid name is 422 Invalid with a cause naming metadata.name', async () => {
    const res = await request('POST', cm, { metadata: { name: 'Bad_Name' } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { name: 'Bad_Name', kind: 'ConfigMap' } });
    expect(res.body.details.causes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'metadata.name' })]));
  });

  it('case 3: an invalid label value is 422 with a cause naming metadata.labels', async () => {
    const res = await request('POST', cm, { metadata: { name: 'ok', labels: { app: 'not valid!' } } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.details.causes)).toContain('metadata.labels');
  });

  it.each([
    ['case 4: unbalanced set', 'env in (a'],
    ['case 5: missing key', '=value'],
    ['case 6: bad operator', 'env>>3'],
  ])('%s: a bad label selector is 400 BadRequest', async (_name, selector) => {
    const res = await request('GET', `${cm}?labelSelector=${encodeURIComponent(selector)}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
  });

  it('case 7: an unsupported field selector is 400', async () => {
    const res = await request('GET', `${cm}?fieldSelector=spec.size%3Dbig`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('field label not supported');
  });

  it('case 8: a body that is not JSON is 400', async () => {
    const res = await request('POST', cm, '{"metadata": {', 'application/json');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
  });

  it('case 9: a strategic-merge patch on a custom resource is 415', async () => {
    const res = await request('PATCH', `${widgets}/w1`, { spec: { a: 2 } }, 'application/strategic-merge-patch+json');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
  });

  it('case 10: a missing object is 404 NotFound naming it', async () => {
    const res = await request('GET', `${widgets}/nope`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ reason: 'NotFound', code: 404, message: 'widgets.example.com "nope" not found', details: { name: 'nope' } });
  });

  it('case 11: an unknown resource path is 404', async () => {
    const res = await request('GET', `${app.clusterUrl()}/apis/example.com/v1/gadgets`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });

  it('case 12: creating an existing object is 409 AlreadyExists', async () => {
    const res = await request('POST', widgets, { metadata: { name: 'w1' } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ reason: 'AlreadyExists' });
  });

  it('case 13: a body kind that does not match the URL is 400', async () => {
    const res = await request('POST', widgets, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' } });
    expect(res.status).toBe(400);
  });

  it('case 14: a write to the wildcard cluster is refused', async () => {
    const res = await request('POST', `${app.url}/clusters/*/apis/example.com/v1/widgets`, { metadata: { name: 'x' } });
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed' });
  });

  it('case 15: an invalid boolean query value is 400', async () => {
    const res = await request('GET', `${cm}?watch=maybe`);
    expect(res.status).toBe(400);
  });

  it('case 16: a JSON patch whose test fails is 422 and changes nothing', async () => {
    const res = await request('PATCH', `${widgets}/w1`, [{ op: 'test', path: '/spec/a', value: 99 }, { op: 'replace', path: '/spec/a', value: 5 }], 'application/json-patch+json');
    expect(res.status).toBe(422);
    expect((await request('GET', `${widgets}/w1`)).body.spec.a).toBe(1);
  });

  it('case 17: an unsupported content type is 415 naming the media types a write takes', async () => {
    const res = await request('POST', widgets, 'name: x', 'text/plain');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
    expect(res.body.message).toBe('the body of the request was in an unknown format - accepted media types include: application/json, application/vnd.kubernetes.protobuf');
    const put = await request('PUT', `${widgets}/w1`, 'x', 'application/x-www-form-urlencoded');
    expect(put.status).toBe(415);
    expect(put.body.message).toContain('accepted media types include: application/json');
  });

  it('case 17b: a PATCH of an unsupported content type is 415 naming the patch types of that resource', async () => {
    const res = await request('PATCH', `${widgets}/w1`, '{}', 'text/plain');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
    expect(res.body.message).toBe('the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
  });

  it('case 18: deleting the default namespace is forbidden', async () => {
    const res = await request('DELETE', `${app.clusterUrl()}/api/v1/namespaces/default`);
    expect(res.status).toBe(403);
  });

  it('case 19: an invalid logical cluster name is 400', async () => {
    const res = await request('GET', `${app.url}/clusters/Not_Valid/api/v1/configmaps`);
    expect(res.status).toBe(400);
  });

  // Found by the HTTP fuzz test (test/fuzz): the router decodes `%25` to `%`, and decoding the
  // name again threw URIError, answered 500.
  it('case 20: a name that decodes to a broken percent-escape is 400 BadRequest', async () => {
    for (const name of ['%25', '%25ZZ', 'a%25C3%2528']) {
      const res = await request('GET', `${cm}/${name}`);
      expect(res.status, name).toBe(400);
      expect(res.body, name).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    }
  });

  // Found by the HTTP fuzz test: a ClusterCachedResource nested 5000 levels deep was stored, and
  // every later list of clustercachedresources failed with a stack overflow (500).
  it('case 21: a body nested deeper than 500 levels is 400, and so is a patch that would store one', async () => {
    const deep = (levels: number): string => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
    const created = await request('POST', cm, `{"metadata":{"name":"deep"},"data":{},"x":${deep(5000)}}`);
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: expect.stringContaining('deeper than 500') });
    expect((await request('GET', cm)).status).toBe(200);
    expect((await request('POST', cm, `{"metadata":{"name":"nearly"},"x":${deep(400)}}`)).status).toBe(201);
    const grown = await request('PATCH', `${cm}/nearly`, [{ op: 'add', path: `/x${'/0'.repeat(150)}`, value: JSON.parse(deep(400)) }], 'application/json-patch+json');
    expect(grown.status).toBe(400);
  });
  it('case 22: a URL fastify cannot decode (a broken escape) is a 400 Status, not fastify\'s own error body', async () => {
    const res = await request('GET', `${cm}/%ZZ`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'BadRequest', code: 400 });
  });
  it.each([
    ['case 23: a list', ''],
    ['case 24: a watch', '&watch=true'],
    ['case 25: a watch of the cache API', '&watch=true'],
  ])('%s from a resourceVersion the server has not reached is 504 Timeout with cause ResourceVersionTooLarge', async (name, extra) => {
    const base = name.includes('cache API') ? `${app.url}/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects` : cm;
    const res = await request('GET', `${base}?resourceVersion=99999999${extra}`);
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Timeout', code: 504, details: { retryAfterSeconds: 1 } });
    expect(res.body.message).toMatch(/^Timeout: Too large resource version: 99999999, current: \d+$/);
    expect(res.body.details.causes).toEqual([{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
  });
  it.each([
    ['case 26: a list', 'abc', ''],
    ['case 27: a list', '-5', ''],
    ['case 28: a get', '1.5', '/w1'],
    ['case 29: a list of the cache API', 'abc', ''],
    ['case 30: a list', '18446744073709551616', ''],
  ])('%s with resourceVersion=%s is 400 BadRequest, as a watch with it is', async (name, rv, path) => {
    const base = name.includes('cache API') ? `${app.url}/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects` : widgets;
    const res = await request('GET', `${base}${path}?resourceVersion=${rv}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400, message: `invalid resourceVersion "${rv}": must be a non-negative integer` });
  });
  it('case 32: list and watch options that do not combine are 422 Invalid with a cause per rule', async () => {
    const noVersion = await request('GET', `${widgets}?resourceVersionMatch=Exact`);
    expect(noVersion.status).toBe(422);
    expect(noVersion.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { kind: 'ListOptions', group: 'meta.k8s.io' } });
    expect(noVersion.body.details.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'resourceVersionMatch', message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided' }]);
    expect((await request('GET', `${widgets}?resourceVersionMatch=Bogus&resourceVersion=1`)).status).toBe(422);
    expect((await request('GET', `${widgets}?watch=true&sendInitialEvents=true`)).status).toBe(422);
    expect((await request('GET', `${app.url}/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects?sendInitialEvents=true`)).status).toBe(422);
  });

  it('case 33: an exact list is answered at the current version and 410 Expired at an older one', async () => {
    const current = (await request('GET', widgets)).body.metadata.resourceVersion as string;
    const exact = await request('GET', `${widgets}?resourceVersion=${current}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(200);
    expect(exact.body.metadata.resourceVersion).toBe(current);
    expect((await request('POST', cm, { metadata: { name: 'moves-the-version' } })).status).toBe(201);
    const older = await request('GET', `${widgets}?resourceVersion=${current}&resourceVersionMatch=Exact`);
    expect(older.status).toBe(410);
    expect(older.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    expect(older.body.message).toMatch(new RegExp(`^too old resource version: ${current} \\(\\d+\\)$`));
    expect((await request('GET', `${widgets}?resourceVersion=${current}&resourceVersionMatch=NotOlderThan`)).status).toBe(200);
  });

  it('case 34: a write to a resource the cluster does not serve is 404 whatever its body (protobuf of an unknown kind included), as kube-apiserver answers it', async () => {
    // kubectl sends built-in kinds as protobuf; a kind no decoder knows (a Pod) must not hide the 404.
    const pods = `${app.clusterUrl()}/api/v1/namespaces/default/pods`;
    const field = (tag: number, bytes: Buffer) => Buffer.concat([Buffer.from([tag, bytes.length]), bytes]);
    const typeMeta = Buffer.concat([field(0x0a, Buffer.from('v1')), field(0x12, Buffer.from('Pod'))]);
    const envelope = Buffer.concat([Buffer.from('k8s\0', 'latin1'), field(0x0a, typeMeta), field(0x12, Buffer.from('{}'))]);
    const res = await fetch(pods, { method: 'POST', headers: { 'content-type': 'application/vnd.kubernetes.protobuf' }, body: envelope });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, message: 'the server could not find the requested resource' });
    for (const [body, type] of [['{"metadata": {', 'application/json'], ['name: x', 'text/plain']] as const) {
      const answer = await request('POST', `${app.clusterUrl()}/apis/example.com/v1/gadgets`, body, type);
      expect(answer.status, type).toBe(404);
      expect(answer.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
    }
    expect((await request('PATCH', `${app.clusterUrl()}/apis/example.com/v9/widgets/w1`, '[{', 'application/json-patch+json')).status).toBe(404);
  });

  it('case 31: a get and a list with resourceVersion 0 or a version reached are answered', async () => {
    expect((await request('GET', `${widgets}/w1?resourceVersion=0`)).status).toBe(200);
    const listed = await request('GET', `${widgets}?resourceVersion=0`);
    expect(listed.status).toBe(200);
    expect((await request('GET', `${widgets}?resourceVersion=${listed.body.metadata.resourceVersion}`)).status).toBe(200);
  });
});

