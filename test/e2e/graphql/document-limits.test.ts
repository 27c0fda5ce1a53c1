// One set of document limits on every transport (auth on): a document over the token, byte,
// depth, alias or repeated-field limit gets the same extensions.code over HTTP GET, HTTP POST and
// WebSocket. Each limit is exceeded by a query (HTTP) and by a subscription (WebSocket) of the
// same shape.

import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { AUTH_CONFIG, TOKENS, call } from '../auth/auth-fixture.js';
import { record } from './graphql-http.js';

const OWNERS = `${'owners { '.repeat(8)}kind${' }'.repeat(8)}`;
/** PADDING makes a document of more than 64 KiB with few tokens (a comment is not a token). */
const PADDING = ` # ${'x'.repeat(70_000)}`;
const aliases = (field: string, n: number) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');

/** Shape is one over-limit document as a query (for HTTP) and as a subscription (for WebSocket). */
interface Shape {
  readonly query: string;
  readonly subscription: string;
  readonly code: string;
  /** status is the HTTP status of the refusal. */
  readonly status: number;
  /** viaGet: the document fits in a URL (Node refuses request heads over 16 KiB with 431). */
  readonly viaGet: boolean;
}

const SHAPES: ReadonlyArray<[string, Shape]> = [
  ['case 1: more than 2000 tokens', {
    query: `{ schemas { ${'name '.repeat(2100)}} }`,
    subscription: `subscription { cachedObjectEvents { ${'type '.repeat(2100)}} }`,
    code: 'GRAPHQL_PARSE_FAILED',
    status: 400,
    viaGet: true,
  }],
  ['case 2: more than 64 KiB', {
    query: `{ schemas { name } }${PADDING}`,
    subscription: `subscription { cachedObjectEvents { type } }${PADDING}`,
    code: 'PAYLOAD_TOO_LARGE',
    status: 413,
    viaGet: false,
  }],
  ['case 3: deeper than 8 levels', {
    query: `{ cachedObjects { edges { node { ${OWNERS} } } } }`,
    subscription: `subscription { cachedObjectEvents { object { ${OWNERS} } } }`,
    code: 'QUERY_TOO_DEEP',
    status: 400,
    viaGet: true,
  }],
  ['case 4: more than 100 aliases', {
    query: `{ ${aliases('schemas { name }', 101)} }`,
    subscription: `subscription { cachedObjectEvents { ${aliases('type', 101)} } }`,
    code: 'QUERY_TOO_MANY_ALIASES',
    status: 400,
    viaGet: true,
  }],
  ['case 5: one field selected more than 10 times (validation would compare the copies pairwise)', {
    query: `{ ${'schemas { name } '.repeat(400)}}`,
    subscription: `subscription { cachedObjectEvents { ${'... on CachedObjectEvent { type } '.repeat(11)}} }`,
    code: 'QUERY_TOO_MANY_REPEATED_FIELDS',
    status: 400,
    viaGet: true,
  }],
];

describe('GraphQL document limits on every transport', () => {
  let app: TestApp;
  let client: Client;

  beforeAll(async () => {
    app = await startTestApp({ auth: AUTH_CONFIG });
    client = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true,
      connectionParams: { authorization: `Bearer ${TOKENS.admin}` },
    });
  });
  afterAll(async () => {
    await client?.dispose();
    await app?.stop();
  });

  it.each(SHAPES)('%s: the same code over GET, POST and WebSocket', async (_name, shape) => {
    const post = await call('POST', `${app.url}/graphql`, TOKENS.admin, { query: shape.query });
    expect(post.status).toBe(shape.status);
    expect(post.body.errors?.[0]?.extensions?.code, 'POST').toBe(shape.code);
    if (shape.viaGet) {
      const get = await call('GET', `${app.url}/graphql?query=${encodeURIComponent(shape.query)}`, TOKENS.admin);
      expect(get.status).toBe(post.status);
      expect(get.body.errors?.[0]?.extensions?.code, 'GET').toBe(shape.code);
    }
    const subscription = record(client, shape.subscription);
    await eventually(() => expect(subscription.errors, 'WebSocket').toBeDefined());
    expect(subscription.errors).toMatchObject([{ extensions: { code: shape.code } }]);
    expect(subscription.results).toEqual([]);
  });

  it('case 6: a document within every limit runs over each transport', async () => {
    expect((await call('POST', `${app.url}/graphql`, TOKENS.admin, { query: '{ schemas { name } }' })).status).toBe(200);
    expect((await call('GET', `${app.url}/graphql?query=${encodeURIComponent('{ schemas { name } }')}`, TOKENS.admin)).status).toBe(200);
    const subscription = record(client, 'subscription { cachedObjectEvents { type } }');
    await eventually(async () => expect(String((await call('GET', `${app.url}/metrics`, TOKENS.admin)).body)).toMatch(/cachegate_graphql_subscriptions [1-9]/));
    expect(subscription.errors).toBeUndefined();
    subscription.dispose();
  });
});
