// The auth matrix on the REST facade: anonymous and unknown tokens get a 401 Status,
// a token limited to `root` gets 403 for `team-b` and never sees its objects (lists, `*` lists,
// schemas, CCRs, unique lookups, SSE), a read-only token cannot write, the admin sees everything.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/test-app.js';
import { SCHEMA, TOKENS, call, readUntil, startAuthApp } from './auth-fixture.js';

const OBJECT = `/v1/objects/machines.svm.io/v1alpha1/instances`;

describe('REST facade with auth on', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startAuthApp();
  });
  afterAll(async () => app?.stop());

  const clustersOf = (items: Array<{ metadata: { annotations?: Record<string, string> } }>): string[] =>
    items.map((i) => i.metadata.annotations?.['kcp.io/cluster'] ?? '?').sort();

  it.each([
    ['case 1: anonymous', undefined, 401, 'Unauthorized'],
    ['case 2: an unknown token', TOKENS.bad, 401, 'Unauthorized'],
    ['case 3: the admin', TOKENS.admin, 200, undefined],
    ['case 4: the root-only token', TOKENS.rootOnly, 200, undefined],
    ['case 5: the read-only token', TOKENS.readOnly, 200, undefined],
  ])('%s lists CachedObjects with the expected status', async (_name, token, status, reason) => {
    const res = await call('GET', `${app.url}/v1/cachedobjects?schema=${SCHEMA}`, token);
    expect(res.status).toBe(status);
    if (reason) {
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason, code: 401 });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('case 6: probes stay open; /openapi.json and unknown paths need a token', async () => {
    for (const path of ['/livez', '/readyz', '/healthz']) expect((await call('GET', `${app.url}${path}`)).status).toBe(200);
    expect((await call('GET', `${app.url}/openapi.json`)).status).toBe(401);
    expect((await call('GET', `${app.url}/no/such/path`)).status).toBe(401);
    expect((await call('GET', `${app.url}/no/such/path`, TOKENS.admin)).status).toBe(404);
  });

  it('case 7: a malformed Authorization header is 401, not 400 or 500', async () => {
    for (const header of ['Basic YWRtaW46YWRtaW4=', 'Bearer', `Bearer ${TOKENS.admin} extra`, 'token']) {
      const res = await fetch(`${app.url}/v1/schemas`, { headers: { authorization: header } });
      expect(res.status, header).toBe(401);
    }
  });

  it('case 8: the root-only token sees only root in `*` lists, schemas and CCRs; the admin sees both', async () => {
    const scoped = await call('GET', `${app.url}/v1/cachedobjects?schema=${SCHEMA}`, TOKENS.rootOnly);
    expect(clustersOf(scoped.body.items)).toEqual(['root']);
    const everything = await call('GET', `${app.url}/v1/cachedobjects`, TOKENS.rootOnly);
    expect(new Set(clustersOf(everything.body.items))).toEqual(new Set(['root']));
    const admin = await call('GET', `${app.url}/v1/cachedobjects?schema=${SCHEMA}`, TOKENS.admin);
    expect(clustersOf(admin.body.items)).toEqual(['root', 'team-b']);
    const originals = await call('GET', `${app.url}/v1/schemas/${SCHEMA}/objects`, TOKENS.rootOnly);
    expect(originals.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual(['web-root']);
    const schemas = await call('GET', `${app.url}/v1/schemas`, TOKENS.rootOnly);
    expect(schemas.body.items).toMatchObject([{ name: SCHEMA, count: 1, clusters: [{ cluster: 'root', count: 1 }] }]);
    const ccrs = await call('GET', `${app.url}/v1/clustercachedresources`, TOKENS.rootOnly);
    expect(clustersOf(ccrs.body.items)).toEqual(['root']);
  });

  it('case 9: naming another cluster is 403 Forbidden for the root-only token', async () => {
    for (const path of [
      `/v1/cachedobjects?cluster=team-b`,
      `${OBJECT}/web-team-b?cluster=team-b`,
      `/v1/cachedobjects/${SCHEMA}.web-team-b?cluster=team-b`,
      `/v1/schemas/${SCHEMA}/objects?cluster=team-b`,
      `/v1/cachedobjects?schema=${SCHEMA}&minResourceVersion=embedded/team-b/1`,
    ]) {
      const res = await call('GET', `${app.url}${path}`, TOKENS.rootOnly);
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    }
  });

  it('case 10: lookups without a cluster are answered among the token\'s clusters only', async () => {
    expect((await call('GET', `${app.url}${OBJECT}/web-root`, TOKENS.rootOnly)).status).toBe(200);
    expect((await call('GET', `${app.url}${OBJECT}/web-team-b`, TOKENS.rootOnly)).status).toBe(404);
    expect((await call('GET', `${app.url}${OBJECT}/web-team-b`, TOKENS.admin)).status).toBe(200);
    expect((await call('GET', `${app.url}/v1/cachedobjects/${SCHEMA}.web-team-b`, TOKENS.rootOnly)).status).toBe(404);
  });

  it('case 11: writes: the read-only token gets 403 everywhere, the root-only token only in its cluster', async () => {
    const body = { metadata: { name: 'written' }, spec: {} };
    const create = (token: string, cluster: string) => call('POST', `${app.url}${OBJECT}?cluster=${cluster}`, token, body);
    expect((await create(TOKENS.readOnly, 'root')).body).toMatchObject({ reason: 'Forbidden', code: 403 });
    expect((await create(TOKENS.rootOnly, 'team-b')).status).toBe(403);
    expect((await create(TOKENS.rootOnly, 'root')).status).toBe(201);
    const patch = await call('PATCH', `${app.url}${OBJECT}/written?cluster=root`, TOKENS.readOnly, { spec: { a: 1 } }, 'application/merge-patch+json');
    expect(patch.status).toBe(403);
    expect((await call('DELETE', `${app.url}${OBJECT}/written?cluster=root`, TOKENS.readOnly)).status).toBe(403);
    expect((await call('DELETE', `${app.url}${OBJECT}?cluster=team-b&labelSelector=app%3Dweb`, TOKENS.rootOnly)).status).toBe(403);
    expect((await call('DELETE', `${app.url}${OBJECT}/written?cluster=root`, TOKENS.admin)).status).toBe(200);
  });

  it('case 12: an SSE watch of the root-only token carries root\'s events only', async () => {
    const controller = new AbortController();
    const res = await fetch(`${app.url}/v1/cachedobjects?watch=true&schema=${SCHEMA}`, {
      headers: { authorization: `Bearer ${TOKENS.rootOnly}` }, signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const text = readUntil(res, 'sse-root');
    for (const cluster of ['team-b', 'root']) {
      const created = await call('POST', `${app.url}${OBJECT}?cluster=${cluster}`, TOKENS.admin, { metadata: { name: `sse-${cluster}` } });
      expect(created.status).toBe(201);
    }
    const seen = await text;
    controller.abort();
    expect(seen).toContain('sse-root');
    expect(seen).not.toContain('sse-team-b');
    const forbidden = await call('GET', `${app.url}/v1/cachedobjects?watch=true&cluster=team-b`, TOKENS.rootOnly);
    expect(forbidden.status).toBe(403);
    expect((await call('GET', `${app.url}/v1/cachedobjects?watch=true`)).status).toBe(401);
  });
});
