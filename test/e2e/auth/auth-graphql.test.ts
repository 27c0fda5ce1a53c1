// The auth matrix on GraphQL: queries and mutations over HTTP carry UNAUTHENTICATED /
// FORBIDDEN in extensions.code; a restricted token's lists and lookups hold its clusters only; a
// graphql-transport-ws subscription authenticates from its connection_init payload (or the upgrade
// request's header) and receives only its clusters' events.

import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/kube-http.js';
import type { TestApp } from '../../helpers/test-app.js';
import { record } from '../graphql/graphql-http.js';
import { GROUP, SCHEMA, TOKENS, call, instancesUrl, startAuthApp } from './auth-fixture.js';

const LIST = `{ cachedObjects(filter: {schema: "${SCHEMA}"}) { totalCount edges { node { cluster } } } }`;
const CREATE = (cluster: string, name: string) =>
  `mutation { createObject(group: "${GROUP}", version: "v1alpha1", resource: "instances", cluster: "${cluster}", object: {metadata: {name: "${name}"}}) }`;

describe('GraphQL with auth on', () => {
  let app: TestApp;
  const gql = (query: string, token?: string) => call('POST', `${app.url}/graphql`, token, { query });
  /** openSubscriptions reads the gauge of open subscriptions: one is counted once it will receive events. */
  const openSubscriptions = async (): Promise<number> =>
    Number(/^cachegate_graphql_subscriptions (\S+)$/m.exec(String((await call('GET', `${app.url}/metrics`, TOKENS.admin)).body))?.[1]);
  const ws = (connectionParams?: Record<string, unknown>, headers?: Record<string, string>): Client => createClient({
    url: `${app.url.replace(/^http/, 'ws')}/graphql`, retryAttempts: 0, lazy: true,
    ...(connectionParams ? { connectionParams } : {}),
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, headers ? { headers } : {});
      }
    },
  });

  beforeAll(async () => {
    app = await startAuthApp();
  });
  afterAll(async () => app?.stop());

  it.each([
    ['case 1: anonymous', undefined, 401, 'UNAUTHENTICATED'],
    ['case 2: an unknown token', TOKENS.bad, 401, 'UNAUTHENTICATED'],
  ])('%s gets HTTP %i with extensions.code %s', async (_name, token, status, code) => {
    const res = await gql(LIST, token);
    expect(res.status).toBe(status);
    expect(res.body.errors).toMatchObject([{ extensions: { code } }]);
  });

  it('case 3: a query of the root-only token lists root only; the admin lists both', async () => {
    const scoped = await gql(LIST, TOKENS.rootOnly);
    expect(scoped.body.data.cachedObjects).toMatchObject({ totalCount: 1, edges: [{ node: { cluster: 'root' } }] });
    const admin = await gql(LIST, TOKENS.admin);
    expect(admin.body.data.cachedObjects.totalCount).toBe(2);
    const schemas = await gql('{ schemas { name count clusters { cluster } } }', TOKENS.rootOnly);
    expect(schemas.body.data.schemas).toEqual([{ name: SCHEMA, count: 1, clusters: [{ cluster: 'root' }] }]);
  });

  it('case 4: naming another cluster is FORBIDDEN; a lookup without cluster stays in the token\'s clusters', async () => {
    const other = await gql(`{ cachedObjects(filter: {cluster: "team-b"}) { totalCount } }`, TOKENS.rootOnly);
    expect(other.body.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
    const object = (name: string, cluster = '') =>
      `{ object(group: "${GROUP}", version: "v1alpha1", resource: "instances", name: "${name}"${cluster ? `, cluster: "${cluster}"` : ''}) }`;
    expect((await gql(object('web-team-b', 'team-b'), TOKENS.rootOnly)).body.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
    expect((await gql(object('web-team-b'), TOKENS.rootOnly)).body.errors).toMatchObject([{ extensions: { code: 'NOT_FOUND' } }]);
    expect((await gql(object('web-root'), TOKENS.rootOnly)).body.data.object.metadata.name).toBe('web-root');
  });

  it('case 5: mutations: read-only is FORBIDDEN, root-only writes root but not team-b, admin writes anywhere', async () => {
    expect((await gql(CREATE('root', 'gql-ro'), TOKENS.readOnly)).body.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
    expect((await gql(CREATE('team-b', 'gql-scoped'), TOKENS.rootOnly)).body.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
    expect((await gql(CREATE('root', 'gql-scoped'), TOKENS.rootOnly)).body.data.createObject.metadata.name, 'root-only create').toBe('gql-scoped');
    expect((await gql(CREATE('team-b', 'gql-admin'), TOKENS.admin)).body.data.createObject.metadata.name).toBe('gql-admin');
  });

  it('case 6: a subscription authenticated by connection_init receives only its clusters\' events', async () => {
    const client = ws({ authorization: `Bearer ${TOKENS.rootOnly}` });
    try {
      const events = record(client, `subscription { cachedObjectEvents(filter: {schema: "${SCHEMA}"}) { type object { cluster metadata { name } } } }`);
      await eventually(async () => expect(await openSubscriptions()).toBe(1));
      for (const cluster of ['team-b', 'root']) {
        expect((await call('POST', instancesUrl(app, cluster), TOKENS.admin, { metadata: { name: `sub-${cluster}` } })).status).toBe(201);
      }
      await eventually(() => expect(events.results.map((r) => (r.data?.['cachedObjectEvents'] as { object: { cluster: string } }).object.cluster)).toContain('root'));
      const clusters = events.results.map((r) => (r.data?.['cachedObjectEvents'] as { object: { cluster: string } }).object.cluster);
      expect(new Set(clusters)).toEqual(new Set(['root']));
      expect(events.errors).toBeUndefined();
      events.dispose();
      await eventually(async () => expect(await openSubscriptions()).toBe(0));
    } finally {
      await client.dispose();
    }
  });

  it('case 7: a subscription with the token in the upgrade request\'s header works too', async () => {
    const client = ws(undefined, { authorization: `Bearer ${TOKENS.admin}` });
    try {
      const events = record(client, `subscription { cachedObjectEvents(filter: {schema: "${SCHEMA}", cluster: "team-b"}) { type } }`);
      await eventually(async () => expect(await openSubscriptions()).toBe(1));
      expect((await call('POST', instancesUrl(app, 'team-b'), TOKENS.admin, { metadata: { name: 'sub-header' } })).status).toBe(201);
      await eventually(() => expect(events.results.length).toBeGreaterThan(0));
      expect(events.errors).toBeUndefined();
      events.dispose();
    } finally {
      await client.dispose();
    }
  });

  it('case 8: subscriptions without a token or with a bad one are closed with 4403; a forbidden cluster is FORBIDDEN', async () => {
    const anonymous = ws();
    const bad = ws({ authorization: `Bearer ${TOKENS.bad}` });
    const scoped = ws({ authorization: `Bearer ${TOKENS.rootOnly}` });
    try {
      const none = record(anonymous, `subscription { cachedObjectEvents { type } }`);
      const refused = record(bad, `subscription { cachedObjectEvents { type } }`);
      const forbidden = record(scoped, `subscription { cachedObjectEvents(filter: {cluster: "team-b"}) { type } }`);
      await eventually(() => {
        // A connection_init without a known token closes the socket (4403) before any document is read.
        expect(none.errors).toMatchObject({ code: 4403 });
        expect(refused.errors).toMatchObject({ code: 4403 });
        expect(forbidden.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
      });
      expect(refused.results).toEqual([]);
    } finally {
      await Promise.all([anonymous.dispose(), bad.dispose(), scoped.dispose()]);
    }
  });
});
