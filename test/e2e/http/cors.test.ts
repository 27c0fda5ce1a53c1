// CORS end to end: the real app on a loopback port, driven with fetch as a browser would (fetch
// in Node sends the Origin and preflight headers a browser adds on its own).
//   case 1: a preflight from an allowed origin on a REST route is 204 with the allow headers
//   case 2: a preflight from an allowed origin on /graphql is 204 with the allow headers
//   case 3: a GET from an allowed origin carries Allow-Origin, Allow-Credentials and Expose-Headers
//   case 4: a REST write from an allowed origin exposes the headers it answers with
//   case 5: a GraphQL query from an allowed origin carries the CORS headers
//   case 6: a disallowed origin gets no CORS header, and is otherwise served as usual
//   case 7: a request without Origin gets no CORS header
//   case 8: without http.cors.origins no route sends a CORS header, preflight or not
//   case 9: unknown paths and methods get the same 404 and 405 (and Allow) with CORS on as without
//   case 10: with `*` any origin is echoed (never `*`, as credentials are allowed), but not `null`
//   case 11: with auth on, a preflight is answered without a token; the request without one is
//            still 401 (readable by the page), with one 200
//   case 12: while load is shed, a preflight is still answered and the 503 is readable by the page

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, eventually, request } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { AUTH_CONFIG, TOKENS } from '../auth/auth-fixture.js';

const DASHBOARD = 'https://dash.example.com';
const STRANGER = 'https://evil.example.com';
const CORS_CONFIG = { http: { cors: { origins: [DASHBOARD, 'http://localhost:5173'] } } };
const EXPOSED = ['X-Cachegate-Resource-Version', 'X-Cachegate-Source', 'Retry-After', 'X-Request-Id', 'ETag'];
const SCHEMAS_QUERY = JSON.stringify({ query: '{ schemas { name } }' });

/** preflight sends what a browser sends before a request it may not send unasked. */
function preflight(url: string, origin: string, method: string, headers = 'authorization, content-type'): Promise<Response> {
  return fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });
}

/** corsHeaders are the response's Access-Control-* headers. */
function corsHeaders(res: Response): Record<string, string> {
  return Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-')));
}

/** listed splits a comma-separated header into lowercase names. */
function listed(res: Response, header: string): string[] {
  return (res.headers.get(header) ?? '').split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
}

function expectAllowedPreflight(res: Response, origin: string, method: string): void {
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  expect(listed(res, 'access-control-allow-methods')).toContain(method.toLowerCase());
  expect(listed(res, 'access-control-allow-headers')).toEqual(expect.arrayContaining(['authorization', 'content-type']));
}

function expectReadableBy(res: Response, origin: string): void {
  expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  expect(listed(res, 'access-control-expose-headers')).toEqual(expect.arrayContaining(EXPOSED.map((name) => name.toLowerCase())));
  expect(listed(res, 'vary')).toContain('origin');
}

describe('CORS', () => {
  let app: TestApp;
  let plain: TestApp;

  beforeAll(async () => {
    [app, plain] = await Promise.all([startTestApp(CORS_CONFIG), startTestApp()]);
    await eventually(async () => expect((await request('GET', `${app.url}/readyz`)).status).toBe(200));
  });
  afterAll(async () => {
    await Promise.all([app?.stop(), plain?.stop()]);
  });

  it('case 1: a preflight from an allowed origin on a REST route is 204 with the allow headers', async () => {
    for (const [path, method] of [['/v1/schemas', 'GET'], ['/v1/objects/core/v1/configmaps?cluster=root', 'POST'], ['/v1/objects/core/v1/configmaps/x', 'DELETE']] as const) {
      const res = await preflight(`${app.url}${path}`, DASHBOARD, method);
      expectAllowedPreflight(res, DASHBOARD, method);
      expect(await res.text()).toBe('');
    }
  });

  it('case 2: a preflight from an allowed origin on /graphql is 204 with the allow headers', async () => {
    const res = await preflight(`${app.url}/graphql`, 'http://localhost:5173', 'POST');
    expectAllowedPreflight(res, 'http://localhost:5173', 'POST');
  });

  it('case 3: a GET from an allowed origin carries Allow-Origin, Allow-Credentials and Expose-Headers', async () => {
    const res = await fetch(`${app.url}/v1/schemas`, { headers: { origin: DASHBOARD } });
    expect(res.status).toBe(200);
    expectReadableBy(res, DASHBOARD);
    expect(res.headers.get('x-request-id')).not.toBeNull();
  });

  it('case 4: a REST write from an allowed origin exposes the headers it answers with', async () => {
    const res = await fetch(`${app.url}/v1/objects/core/v1/configmaps?cluster=root&namespace=default`, {
      method: 'POST', headers: { origin: DASHBOARD, 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'from-the-dashboard' }, data: { a: '1' } }),
    });
    expect(res.status).toBe(201);
    expectReadableBy(res, DASHBOARD);
    for (const header of ['x-cachegate-resource-version', 'x-cachegate-source', 'x-request-id']) {
      expect(res.headers.get(header), header).not.toBeNull();
      expect(listed(res, 'access-control-expose-headers')).toContain(header);
    }
  });

  it('case 5: a GraphQL query from an allowed origin carries the CORS headers', async () => {
    const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { origin: DASHBOARD, 'content-type': 'application/json' }, body: SCHEMAS_QUERY });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { schemas: [] } });
    expectReadableBy(res, DASHBOARD);
  });

  it('case 6: a disallowed origin gets no CORS header, and is otherwise served as usual', async () => {
    const get = await fetch(`${app.url}/v1/schemas`, { headers: { origin: STRANGER } });
    expect(get.status).toBe(200);
    expect(await get.json()).toMatchObject({ kind: 'SchemaList' });
    expect(corsHeaders(get)).toEqual({});
    const pre = await preflight(`${app.url}/v1/schemas`, STRANGER, 'GET');
    expect(pre.status).not.toBe(204);
    expect(corsHeaders(pre)).toEqual({});
    // Origins compare as whole strings: another scheme or port is another origin.
    const otherPort = await fetch(`${app.url}/v1/schemas`, { headers: { origin: 'https://dash.example.com:8443' } });
    expect(corsHeaders(otherPort)).toEqual({});
  });

  it('case 7: a request without Origin gets no CORS header', async () => {
    const res = await fetch(`${app.url}/v1/schemas`);
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual({});
  });

  it('case 8: without http.cors.origins no route sends a CORS header, preflight or not', async () => {
    for (const res of [
      await preflight(`${plain.url}/v1/schemas`, DASHBOARD, 'GET'),
      await preflight(`${plain.url}/graphql`, DASHBOARD, 'POST'),
      await fetch(`${plain.url}/v1/schemas`, { headers: { origin: DASHBOARD } }),
      await fetch(`${plain.url}/graphql`, { method: 'POST', headers: { origin: DASHBOARD, 'content-type': 'application/json' }, body: SCHEMAS_QUERY }),
    ]) {
      expect(res.status).not.toBe(204);
      expect(corsHeaders(res)).toEqual({});
    }
  });

  it('case 9: unknown paths and methods get the same 404 and 405 (and Allow) with CORS on as without', async () => {
    const requests: ReadonlyArray<readonly [string, string, Record<string, string>]> = [
      ['GET', '/no/such/path', {}],
      ['DELETE', '/no/such/path', { origin: DASHBOARD }],
      ['GET', '/v1/no-such-route', { origin: DASHBOARD }],
      ['PUT', '/v1/schemas', {}],
      ['OPTIONS', '/v1/schemas', {}],
      ['OPTIONS', '/v1/schemas', { origin: STRANGER, 'access-control-request-method': 'GET' }],
    ];
    for (const [method, path, headers] of requests) {
      const [withCors, without] = await Promise.all([app, plain].map((target) => fetch(`${target.url}${path}`, { method, headers })));
      const seen = (res: Response | undefined) => ({ status: res?.status, allow: res?.headers.get('allow') });
      expect(seen(withCors), `${method} ${path}`).toEqual(seen(without));
      expect([404, 405], `${method} ${path}`).toContain(withCors?.status);
      expect(withCors?.headers.get('allow') ?? '', `${method} ${path}`).not.toContain('OPTIONS');
    }
  });

  it('case 10: with `*` any origin is echoed (never `*`, as credentials are allowed), but not `null`', async () => {
    await using star = await startTestApp({ http: { cors: { origins: ['*'] } } });
    for (const origin of [STRANGER, 'http://localhost:3000']) {
      expectAllowedPreflight(await preflight(`${star.url}/graphql`, origin, 'POST'), origin, 'POST');
      expectReadableBy(await fetch(`${star.url}/v1/schemas`, { headers: { origin } }), origin);
    }
    expect(corsHeaders(await fetch(`${star.url}/v1/schemas`, { headers: { origin: 'null' } }))).toEqual({});
  });

  it('case 11: with auth on, a preflight is answered without a token; the request without one is still 401, with one 200', async () => {
    await using secured = await startTestApp({ auth: AUTH_CONFIG, ...CORS_CONFIG });
    expectAllowedPreflight(await preflight(`${secured.url}/v1/schemas`, DASHBOARD, 'GET'), DASHBOARD, 'GET');
    expectAllowedPreflight(await preflight(`${secured.url}/graphql`, DASHBOARD, 'POST'), DASHBOARD, 'POST');

    const anonymous = await fetch(`${secured.url}/v1/schemas`, { headers: { origin: DASHBOARD } });
    expect(anonymous.status).toBe(401);
    expectReadableBy(anonymous, DASHBOARD);
    const anonymousGraphql = await fetch(`${secured.url}/graphql`, { method: 'POST', headers: { origin: DASHBOARD, 'content-type': 'application/json' }, body: SCHEMAS_QUERY });
    expect(anonymousGraphql.status).toBe(401);
    expectReadableBy(anonymousGraphql, DASHBOARD);

    const authorized = await fetch(`${secured.url}/v1/schemas`, { headers: { origin: DASHBOARD, authorization: `Bearer ${TOKENS.admin}` } });
    expect(authorized.status).toBe(200);
    expectReadableBy(authorized, DASHBOARD);
  });

  it('case 12: while load is shed, a preflight is still answered and the 503 is readable by the page', async () => {
    await using shedding = await startTestApp({ limits: { maxEventLoopDelayMs: 1 }, ...CORS_CONFIG });
    await eventually(async () => {
      // The stall is the fault under test: it makes the app shed the requests that follow.
      stallEventLoop(300);
      const [pre, shed] = await Promise.all([
        preflight(`${shedding.url}/v1/schemas`, DASHBOARD, 'GET'),
        fetch(`${shedding.url}/v1/schemas`, { headers: { origin: DASHBOARD } }),
      ]);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).not.toBeNull();
      expectReadableBy(shed, DASHBOARD);
      expectAllowedPreflight(pre, DASHBOARD, 'GET');
    }, DEADLINE_MS, 0);
  });
});

function stallEventLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy: the event loop is blocked on purpose
  }
}
