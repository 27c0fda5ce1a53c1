// Input limits and rate limiting: /metrics open or protected by config, 429 with
// Retry-After once a token's burst is spent (other tokens unaffected), 413 as a Status (or a
// GraphQL error) for a 20 MiB body on every write route, `limit` above 10 000 lowered to 10 000,
// the GraphQL alias limit, and malformed parameters answered 4xx, never 5xx.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { AUTH_CONFIG, GROUP, TOKENS, call } from './auth-fixture.js';

const BIG = JSON.stringify({ metadata: { name: 'big' }, data: { blob: 'x'.repeat(20 * 1024 * 1024) } });

describe('limits with auth on', () => {
  let app: TestApp;
  let open: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ auth: { ...AUTH_CONFIG, rateLimit: { requestsPerSecond: 1, burst: 5 } } });
    open = await startTestApp({ auth: { ...AUTH_CONFIG, metrics: 'open' } });
  });
  afterAll(async () => {
    await app?.stop();
    await open?.stop();
  });

  it('case 1: /metrics is protected or open as configured', async () => {
    expect((await call('GET', `${app.url}/metrics`)).status).toBe(401);
    expect((await call('GET', `${app.url}/metrics`, TOKENS.readOnly)).status).toBe(200);
    expect((await call('GET', `${open.url}/metrics`)).status).toBe(200);
    expect((await call('GET', `${open.url}/v1/schemas`)).status).toBe(401);
  });

  it('case 2: past its burst a token gets 429 with Retry-After; another token is not affected', async () => {
    // Burst 5 at 1 request/s: sequential requests meet a 429 well before 50, even on a slow machine.
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    while (statuses.length < 50 && last?.status !== 429) {
      last = await call('GET', `${app.url}/v1/schemas`, TOKENS.rootOnly);
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(5);
    expect(statuses.at(-1)).toBe(429);
    expect(last?.body).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const graphql = await call('POST', `${app.url}/graphql`, TOKENS.rootOnly, { query: '{ schemas { name } }' });
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors).toMatchObject([{ extensions: { code: 'TOO_MANY_REQUESTS' } }]);
    expect((await call('GET', `${app.url}/v1/schemas`, TOKENS.admin)).status).toBe(200);
    // Probes are never limited.
    for (let i = 0; i < 10; i++) expect((await call('GET', `${app.url}/livez`)).status).toBe(200);
  });

  it.each([
    ['case 3: REST facade create', 'POST', '/v1/objects/core/v1/configmaps?cluster=root', 'application/json'],
    ['case 4: REST facade patch', 'PATCH', '/v1/objects/core/v1/configmaps/big?cluster=root&namespace=default', 'application/merge-patch+json'],
    ['case 5: embedded API create', 'POST', '/clusters/root/api/v1/namespaces/default/configmaps', 'application/json'],
    ['case 6: embedded API update', 'PUT', '/clusters/root/api/v1/namespaces/default/configmaps/big', 'application/json'],
  ])('%s: a 20 MiB body is 413 as a Status', async (_name, method, path, contentType) => {
    const res = await call(method, `${open.url}${path}`, TOKENS.admin, BIG, contentType);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'RequestEntityTooLarge', code: 413 });
  });

  it('case 7: a 20 MiB GraphQL request is 413 with PAYLOAD_TOO_LARGE', async () => {
    const res = await call('POST', `${open.url}/graphql`, TOKENS.admin, { query: `{ schemas { name } } # ${'x'.repeat(20 * 1024 * 1024)}` });
    expect(res.status).toBe(413);
    expect(res.body.errors).toMatchObject([{ extensions: { code: 'PAYLOAD_TOO_LARGE', reason: 'RequestEntityTooLarge' } }]);
  });

  it('case 8: limit above 10000 is lowered to 10000, a malformed limit is 400', async () => {
    expect((await call('GET', `${open.url}/v1/cachedobjects?limit=99999999`, TOKENS.admin)).status).toBe(200);
    expect((await call('GET', `${open.url}/clusters/root/api/v1/namespaces?limit=99999999`, TOKENS.admin)).status).toBe(200);
    for (const path of ['/v1/cachedobjects?limit=-1', '/v1/cachedobjects?limit=ten', '/clusters/root/api/v1/namespaces?limit=1e3']) {
      const res = await call('GET', `${open.url}${path}`, TOKENS.admin);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    }
  });

  it('case 9: more than 100 aliases is QUERY_TOO_MANY_ALIASES; 100 are fine', async () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: schemas { name }`).join(' ');
    const over = await call('POST', `${open.url}/graphql`, TOKENS.admin, { query: `{ ${aliases(101)} }` });
    expect(over.status).toBe(400);
    expect(over.body.errors).toMatchObject([{ extensions: { code: 'QUERY_TOO_MANY_ALIASES', limit: 100 } }]);
    const fine = await call('POST', `${open.url}/graphql`, TOKENS.admin, { query: `{ ${aliases(100)} }` });
    expect(fine.status).toBe(200);
  });

  it('case 10: malformed path and query parameters are 4xx, never 5xx', async () => {
    const paths = [
      `/v1/objects/${GROUP}/v1alpha1/instances/%ZZ`,
      '/v1/cachedobjects?labelSelector=a%20in%20(',
      '/v1/cachedobjects?watch=maybe',
      '/v1/cachedobjects?continue=garbage',
      '/v1/cachedobjects?minResourceVersion=nope',
      '/v1/cachedobjects/%00',
      '/clusters/Not_A_Cluster/api/v1/namespaces',
      '/clusters/root/api/v1/namespaces?watch=maybe',
      '/clusters/root/api/v1/namespaces?continue=garbage',
      '/services/cache/shards/UPPER/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects',
    ];
    for (const path of paths) {
      const res = await call('GET', `${open.url}${path}`, TOKENS.admin);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });
});
