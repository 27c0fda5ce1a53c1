// Every HTTP error body is a Kubernetes Status, whichever route family answers and whatever went
// wrong, with the HTTP code and reason of the one error table and Content-Type application/json:
//   case 1: a path no route serves is 404 NotFound, on every API and at the root;
//   case 2: a path served with other methods is 405 MethodNotAllowed, with Allow naming them;
//   case 3: a body that is not JSON is 400 BadRequest (facade, kube API);
//   case 4: a body over limits.bodyBytes is 413 RequestEntityTooLarge (facade, kube API; /graphql
//           keeps its GraphQL error, with the same code and reason);
//   case 5: headers over Node's limit are 431 RequestHeaderFieldsTooLarge (answered before fastify);
//   case 6: a request Node's parser cannot read is 400 BadRequest, and so is a URL fastify cannot decode;
//   case 7: facade failures: 404, 409 (the source's AlreadyExists), 400 (bad limit), 504 (minResourceVersion);
//   case 8: kube API failures: 404, 409, 422, 410 (a watch from a resourceVersion out of the window), 504;
//   case 9: a write to the cache API is 405;
//   case 10: GET /version at the root answers the embedded API's version document;
//   case 11: load shedding answers 503 ServiceUnavailable with Retry-After;
//   case 12: a request on a connection still open once the listener closed is 503 ServiceUnavailable;
//   case 13: auth refusals: 401 Unauthorized (with WWW-Authenticate), 403 Forbidden, 429 TooManyRequests.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, request } from '../../helpers/kube-http.js';
import type { JsonResponse } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { exchange, openSocket, rawRequest } from './raw-http.js';

const BODY_LIMIT = 64 * 1024;
const CACHED_OBJECTS = '/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects';

/** expectStatus checks one answer: the HTTP code, a JSON Status of that code and reason, a message. */
function expectStatus(res: JsonResponse, code: number, reason: string, what: string): void {
  expect(res.status, what).toBe(code);
  expect(res.headers.get('content-type'), what).toMatch(/^application\/json/);
  expect(res.body, what).toMatchObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason, code });
  expect(typeof res.body.message, what).toBe('string');
  expect(res.body.message, what).not.toBe('');
}

describe('error shapes: one app, every route family', () => {
  let app: TestApp;
  let kube: string;
  let configmaps: string;

  beforeAll(async () => {
    app = await startTestApp({ store: { eventWindow: 100 }, limits: { bodyBytes: BODY_LIMIT, minResourceVersionWaitMs: 100 } });
    kube = app.clusterUrl('root');
    configmaps = `${kube}/api/v1/namespaces/default/configmaps`;
  });
  afterAll(async () => app?.stop());

  it.each([
    ['GET', '/nope'],
    ['POST', '/v1/nope'],
    ['GET', '/apis/unknown'],
    ['GET', '/clusters/root/nope'],
    ['GET', '/clusters/root/api/v1/nope'],
    ['GET', '/clusters/root/apis/unknown.example.com'],
    ['GET', '/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/nope'],
    ['GET', '/services/cache/nope'],
  ])('case 1: %s %s is 404 NotFound', async (method, path) => {
    const res = await request(method, `${app.url}${path}`);
    expectStatus(res, 404, 'NotFound', `${method} ${path}`);
    expect(res.body.message).toBe('the server could not find the requested resource');
  });

  it.each([
    ['DELETE', '/livez', 'GET, HEAD'],
    ['POST', '/metrics', 'GET, HEAD'],
    ['DELETE', '/version', 'GET, HEAD'],
    ['DELETE', '/v1/schemas', 'GET, HEAD'],
    ['PUT', '/graphql', 'GET, HEAD, POST'],
    ['OPTIONS', '/clusters/root/api/v1/namespaces', 'GET, HEAD, POST, PUT, PATCH, DELETE'],
  ])('case 2: %s %s is 405 MethodNotAllowed with Allow: %s', async (method, path, allow) => {
    const res = await request(method, `${app.url}${path}`);
    expectStatus(res, 405, 'MethodNotAllowed', `${method} ${path}`);
    expect(res.headers.get('allow')).toBe(allow);
  });

  it('case 3: a body that is not JSON is 400 BadRequest on the facade and the kube API', async () => {
    expectStatus(await request('POST', `${app.url}/v1/objects/core/v1/configmaps?cluster=root&namespace=default`, '{"metadata":'), 400, 'BadRequest', 'facade');
    expectStatus(await request('POST', configmaps, '{"metadata":'), 400, 'BadRequest', 'kube API');
  });

  it('case 4: a body over limits.bodyBytes is 413 RequestEntityTooLarge; /graphql says it as a GraphQL error', async () => {
    const big = JSON.stringify({ metadata: { name: 'big' }, data: { x: 'x'.repeat(BODY_LIMIT) } });
    expectStatus(await request('POST', `${app.url}/v1/objects/core/v1/configmaps?cluster=root&namespace=default`, big), 413, 'RequestEntityTooLarge', 'facade');
    expectStatus(await request('POST', configmaps, big), 413, 'RequestEntityTooLarge', 'kube API');
    const graphql = await request('POST', `${app.url}/graphql`, JSON.stringify({ query: `{ schemas { name } } # ${'x'.repeat(BODY_LIMIT)}` }));
    expect(graphql.status).toBe(413);
    expect(graphql.body.errors).toMatchObject([{ extensions: { code: 'PAYLOAD_TOO_LARGE', reason: 'RequestEntityTooLarge' } }]);
  });

  it('case 5: headers over the server\'s limit are 431 RequestHeaderFieldsTooLarge, as a Status', async () => {
    const res = await rawRequest(app.url, `GET /v1/schemas HTTP/1.1\r\nHost: cachegate\r\nX-Padding: ${'a'.repeat(32 * 1024)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'RequestHeaderFieldsTooLarge', code: 431 });
  });

  it('case 6: a request the parser cannot read, and a URL that cannot be decoded, are 400 BadRequest', async () => {
    const garbled = await rawRequest(app.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbled.status).toBe(400);
    expect(garbled.headers['content-type']).toBe('application/json');
    expect(JSON.parse(garbled.body)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
    expectStatus(await request('GET', `${app.url}/v1/cachedobjects/%zz`), 400, 'BadRequest', 'undecodable URL');
  });

  it('case 7: facade failures: 404, 409 AlreadyExists from the source, 400 on a bad limit, 504 Timeout with Retry-After', async () => {
    expectStatus(await request('GET', `${app.url}/v1/cachedobjects/absent`), 404, 'NotFound', 'absent');
    const create = (): Promise<JsonResponse> => request('POST', `${app.url}/v1/objects/core/v1/configmaps?cluster=root&namespace=default`, { metadata: { name: 'twice' } });
    await eventually(async () => expect((await create()).status).toBe(201), 30_000);
    expectStatus(await create(), 409, 'AlreadyExists', 'second create');
    expectStatus(await request('GET', `${app.url}/v1/cachedobjects?limit=many`), 400, 'BadRequest', 'bad limit');
    // A shard that does not exist never replicates anything: the wait ends at its bound.
    const waited = await request('GET', `${app.url}/v1/cachedobjects?minResourceVersion=elsewhere/root/1`);
    expectStatus(waited, 504, 'Timeout', 'minResourceVersion not reached');
    expect(waited.headers.get('retry-after')).toBe('1');
  });

  it('case 8: kube API failures: 404, 409, 422, 410 Expired, 504 Timeout', async () => {
    expectStatus(await request('GET', `${configmaps}/absent`), 404, 'NotFound', 'get absent');
    const first = await request('POST', configmaps, { metadata: { name: 'kube-twice' } });
    expect(first.status).toBe(201);
    expectStatus(await request('POST', configmaps, { metadata: { name: 'kube-twice' } }), 409, 'AlreadyExists', 'create twice');
    expectStatus(await request('PUT', `${configmaps}/kube-twice`, { metadata: { name: 'kube-twice', resourceVersion: '1' } }), 409, 'Conflict', 'stale update');
    expectStatus(await request('POST', configmaps, { metadata: { name: 'Not_A_Name' } }), 422, 'Invalid', 'invalid name');
    for (let i = 0; i < 110; i++) await request('PUT', `${configmaps}/kube-twice`, { metadata: { name: 'kube-twice' }, data: { i: String(i) } });
    expectStatus(await request('GET', `${configmaps}?watch=true&resourceVersion=${first.body.metadata.resourceVersion}`), 410, 'Expired', 'watch out of the window');
    expectStatus(await request('GET', `${configmaps}?resourceVersion=999999999`), 504, 'Timeout', 'list ahead of the store');
  });

  it('case 9: a write to the cache API is 405 MethodNotAllowed', async () => {
    expectStatus(await request('POST', `${app.url}${CACHED_OBJECTS}`, { metadata: { name: 'x' } }), 405, 'MethodNotAllowed', 'POST cachedobjects');
    expectStatus(await request('DELETE', `${app.url}${CACHED_OBJECTS}/x`), 405, 'MethodNotAllowed', 'DELETE cachedobject');
  });

  it('case 10: GET /version at the root is the embedded API\'s version document', async () => {
    const root = await request('GET', `${app.url}/version`);
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({ major: '1', gitVersion: expect.stringMatching(/^v1\.\d+\.\d+$/), platform: expect.any(String) });
    expect(root.body).toEqual((await request('GET', `${kube}/version`)).body);
  });
});

describe('error shapes: load, shutdown and auth', () => {
  it('case 11: load shedding answers 503 ServiceUnavailable with Retry-After', async () => {
    const app = await startTestApp({ limits: { maxEventLoopDelayMs: 10 } });
    // The request is on the wire before the loop stalls, so it is read right after the stall,
    // when the event-loop delay sampled is the stall's. Retried: the sampler may run first.
    const answer = await eventually(async () => {
      const socket = await openSocket(app.url);
      const pending = exchange(socket, 'GET /v1/schemas HTTP/1.1\r\nHost: cachegate\r\nConnection: close\r\n\r\n');
      stallEventLoop(1500);
      const res = await pending;
      expect(res.status).toBe(503);
      return res;
    }, 60_000, 0).finally(() => app.stop());
    expect(answer.headers['retry-after']).toBe('10');
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'ServiceUnavailable', code: 503, details: { retryAfterSeconds: 10 } });
  });

  it('case 12: a request on a connection open before the listener closed is 503 ServiceUnavailable', async () => {
    const app = await startTestApp();
    const early = await openSocket(app.url);
    const stopped = app.stop();
    await eventually(async () => expect(await refused(app.url)).toBe(true), 30_000, 5);
    const answer = await exchange(early, 'GET /v1/schemas HTTP/1.1\r\nHost: cachegate\r\n\r\n');
    await stopped;
    expect(answer.status).toBe(503);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'ServiceUnavailable', code: 503 });
  });

  describe('with auth', () => {
    const admin = 'admin-token-0123456789abcdef';
    const reader = 'reader-token-0123456789abcdef';
    let app: TestApp;

    beforeAll(async () => {
      app = await startTestApp({
        auth: {
          tokens: [{ token: admin, user: 'admin' }, { token: reader, user: 'reader', verbs: ['read'] }],
          rateLimit: { requestsPerSecond: 1, burst: 2 },
        },
      });
    });
    afterAll(async () => app?.stop());

    const as = (token: string | undefined, method: string, path: string, body?: unknown): Promise<JsonResponse> =>
      request(method, `${app.url}${path}`, body, 'application/json', token === undefined ? {} : { authorization: `Bearer ${token}` });

    it.each(['/v1/schemas', '/clusters/root/api/v1/namespaces', `${CACHED_OBJECTS}`, '/version', '/nope'])('case 13a: no token on %s is 401 Unauthorized', async (path) => {
      const res = await as(undefined, 'GET', path);
      expectStatus(res, 401, 'Unauthorized', path);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    });

    it('case 13b: a read-only token writing is 403 Forbidden, on the facade and the kube API', async () => {
      expectStatus(await as(reader, 'POST', '/v1/objects/core/v1/configmaps?cluster=root&namespace=default', { metadata: { name: 'no' } }), 403, 'Forbidden', 'facade');
      expectStatus(await as(reader, 'POST', '/clusters/root/api/v1/namespaces/default/configmaps', { metadata: { name: 'no' } }), 403, 'Forbidden', 'kube API');
    });

    it('case 13c: a token past its rate is 429 TooManyRequests with Retry-After', async () => {
      const limited = await eventually(async () => {
        const res = await as(admin, 'GET', '/v1/schemas');
        expect(res.status).toBe(429);
        return res;
      }, 30_000, 0);
      expectStatus(limited, 429, 'TooManyRequests', 'past the rate');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
});

/** stallEventLoop blocks this process's event loop (the app's too: it runs in this process). */
function stallEventLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy: this is the stall under test
  }
}

/** refused tells whether a new connection to the app is refused (its listener is closed). */
async function refused(baseUrl: string): Promise<boolean> {
  try {
    (await openSocket(baseUrl)).destroy();
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  }
}
