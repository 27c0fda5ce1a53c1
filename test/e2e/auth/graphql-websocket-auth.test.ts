// Authentication of the GraphQL WebSocket before any document is parsed, and of HTTP requests that
// only carry an Upgrade header (auth on). A socket must authenticate in connection_init (or its
// upgrade request's header) or it is closed with the graphql-transport-ws code: 4403 for a refused
// init, 4401 for a subscribe before init, 4408 when no init comes, 4429 for a second init, 4400
// for a message that is not graphql-transport-ws. A
// document sent on a refused socket is never parsed: no error message comes back, only the close.
// An HTTP request with `Upgrade: websocket` that is not a real handshake is authenticated and rate
// limited like any other.

import { request as httpRequest } from 'node:http';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, eventually } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { record } from '../graphql/graphql-http.js';
import { rawSession, within } from '../graphql/raw-ws.js';
import { AUTH_CONFIG, SCHEMA, TOKENS, call, instancesUrl, startAuthApp } from './auth-fixture.js';

/** INIT_TIMEOUT_MS is the app's connection_init deadline, long enough for any client on a loaded machine. */
const INIT_TIMEOUT_MS = 3000;
const EVENTS = `subscription { cachedObjectEvents(filter: {schema: "${SCHEMA}", cluster: "root"}) { type object { metadata { name } } } }`;
/** HUGE_INVALID is a ~100 KB document that fails to parse: parsed, it would be answered with an error. */
const HUGE_INVALID = `subscription { ${'x '.repeat(50_000)}`;
const INTROSPECTION = '{ __schema { queryType { name } } }';

/** RawAnswer is an HTTP answer read with node:http (fetch refuses to send an Upgrade header). */
interface RawAnswer {
  readonly status: number;
  readonly body: string;
}

/** rawHttp sends one request with the given headers over node:http and reads the answer. */
async function rawHttp(method: string, url: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('GraphQL WebSocket and Upgrade-header authentication', () => {
  let app: TestApp;
  let limited: TestApp;

  beforeAll(async () => {
    app = await startAuthApp({ graphql: { websocket: { initTimeoutMs: INIT_TIMEOUT_MS } } });
    limited = await startTestApp({ auth: { ...AUTH_CONFIG, rateLimit: { requestsPerSecond: 1, burst: 3 } } });
  });
  afterAll(async () => {
    await app?.stop();
    await limited?.stop();
  });

  it('case 1: connection_init without a token is closed with 4403; the huge invalid subscribe sent after it is never parsed', async () => {
    const session = rawSession(app.url);
    await within(session.opened);
    session.send({ type: 'connection_init', payload: {} });
    session.send({ id: '1', type: 'subscribe', payload: { query: HUGE_INVALID } });
    expect(await within(session.closed, DEADLINE_MS, 'the close')).toMatchObject({ code: 4403 });
    expect(session.messages).toEqual([]); // no ack, and no parse error for the document
  });

  it('case 2: connection_init with an unknown token is closed with 4403', async () => {
    const session = rawSession(app.url);
    await within(session.opened);
    session.send({ type: 'connection_init', payload: { authorization: `Bearer ${TOKENS.bad}` } });
    session.send({ id: '1', type: 'subscribe', payload: { query: EVENTS } });
    expect(await within(session.closed)).toMatchObject({ code: 4403 });
    expect(session.messages).toEqual([]);
  });

  it('case 3: a subscribe before connection_init is closed with 4401, unparsed', async () => {
    const session = rawSession(app.url);
    await within(session.opened);
    session.send({ id: '1', type: 'subscribe', payload: { query: HUGE_INVALID } });
    expect(await within(session.closed)).toMatchObject({ code: 4401 });
    expect(session.messages).toEqual([]);
  });

  it.each([
    ['case 4: text that is not JSON', 'subscription { x }'],
    ['case 5: a subscribe whose query is not a string (a JSON-encoded AST)', { id: '1', type: 'subscribe', payload: { query: { kind: 'Document', definitions: [] } } }],
    ['case 6: an unknown message type', { type: 'start', id: '1', payload: { query: '{ schemas { name } }' } }],
  ])('%s is closed with 4400, unparsed', async (_name, message) => {
    const session = rawSession(app.url);
    await within(session.opened);
    session.send({ type: 'connection_init', payload: { authorization: `Bearer ${TOKENS.admin}` } });
    await eventually(() => expect(session.messages.map((m) => m.type)).toContain('connection_ack'));
    session.send(message);
    expect(await within(session.closed)).toMatchObject({ code: 4400 });
    expect(session.messages.filter((m) => m.type === 'error' || m.type === 'next')).toEqual([]);
  });

  it('case 7: a socket that sends no connection_init is closed with 4408', async () => {
    const session = rawSession(app.url);
    await within(session.opened);
    expect(await within(session.closed, INIT_TIMEOUT_MS + DEADLINE_MS)).toMatchObject({ code: 4408 });
  });

  it('case 8: a second connection_init is closed with 4429', async () => {
    const session = rawSession(app.url);
    await within(session.opened);
    session.send({ type: 'connection_init', payload: { authorization: `Bearer ${TOKENS.admin}` } });
    await eventually(() => expect(session.messages.map((m) => m.type)).toContain('connection_ack'));
    session.send({ type: 'connection_init', payload: { authorization: `Bearer ${TOKENS.admin}` } });
    expect(await within(session.closed)).toMatchObject({ code: 4429 });
  });

  it.each([
    ['case 9: a token in the connection_init payload', { authorization: `Bearer ${TOKENS.rootOnly}` }, {}],
    ['case 10: a token in the upgrade request\'s header', undefined, { authorization: `Bearer ${TOKENS.rootOnly}` }],
  ])('%s: the subscription delivers events', async (name, connectionParams, headers) => {
    const client = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`, retryAttempts: 0, lazy: true,
      ...(connectionParams ? { connectionParams } : {}),
      webSocketImpl: class extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers });
        }
      },
    });
    try {
      const events = record(client, EVENTS);
      const objectName = `ws-${name.slice(0, 6).replace(/\W/g, '')}`;
      // The subscription starts asynchronously: create objects until one is seen.
      await eventually(async () => {
        await call('POST', instancesUrl(app, 'root'), TOKENS.admin, { metadata: { generateName: `${objectName}-` } });
        expect(events.results.length).toBeGreaterThan(0);
      }, DEADLINE_MS, 500);
      expect(events.errors).toBeUndefined();
      events.dispose();
    } finally {
      await client.dispose();
    }
  });

  it('case 11: a real handshake without a token is upgraded (the token comes in connection_init)', async () => {
    const session = rawSession(app.url);
    await within(session.opened);
    session.send({ type: 'connection_init', payload: { authorization: `Bearer ${TOKENS.readOnly}` } });
    await eventually(() => expect(session.messages.map((m) => m.type)).toContain('connection_ack'));
    session.socket.close();
  });

  it.each([
    ['case 12: GET with only Upgrade: websocket', 'GET', { upgrade: 'websocket' }],
    ['case 13: GET with a handshake of version 8', 'GET', { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '8' }],
    ['case 14: POST with Upgrade: websocket', 'POST', { upgrade: 'websocket' }],
    ['case 15: POST with Upgrade: websocket and Connection: upgrade', 'POST', { upgrade: 'websocket', connection: 'Upgrade' }],
  ])('%s and no token is 401 UNAUTHENTICATED, not answered', async (_name, method, headers) => {
    const url = method === 'GET' ? `${app.url}/graphql?query=${encodeURIComponent(INTROSPECTION)}` : `${app.url}/graphql`;
    const res = await rawHttp(method, url, headers, method === 'POST' ? JSON.stringify({ query: INTROSPECTION }) : undefined);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
  });

  it('case 16: POST /graphql with Upgrade: websocket is rate limited like any request', async () => {
    const statuses: number[] = [];
    // Burst 3 at 1 request/s: sequential requests meet a 429 well before 50.
    while (statuses.length < 50 && !statuses.includes(429)) {
      const res = await rawHttp('POST', `${limited.url}/graphql`, { upgrade: 'websocket', authorization: `Bearer ${TOKENS.rootOnly}` }, JSON.stringify({ query: '{ schemas { name } }' }));
      statuses.push(res.status);
    }
    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(429);
    const anonymous = await rawHttp('POST', `${limited.url}/graphql`, { upgrade: 'websocket' }, JSON.stringify({ query: INTROSPECTION }));
    expect(anonymous.status).toBe(401);
  });
});
