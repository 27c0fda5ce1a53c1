// The auth matrix on the kube-compatible APIs: the embedded source (/clusters/...) and
// the cache API (/services/cache/...). Anonymous requests get a 401 Status while replication keeps
// working through the internal credential; a token limited to `root` gets 403 for `team-b` and its
// `*` lists and watches hold root's objects only; a read-only token cannot write; kubectl works
// with --token.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, request } from '../../helpers/kube-http.js';
import { kubectlFor } from '../../helpers/kubectl.js';
import { startTlsProxy } from './tls-proxy.js';
import type { TestApp } from '../../helpers/test-app.js';
import { SCHEMA, TOKENS, call, instancesUrl, readUntil, startAuthApp } from './auth-fixture.js';

const CACHED = '/apis/cache.kcp.io/v1alpha1/cachedobjects';

describe('kube-compatible APIs with auth on', () => {
  let app: TestApp;
  const cache = (shard: string, cluster: string) => `${app.url}/services/cache/shards/${shard}/clusters/${cluster}${CACHED}`;
  const clustersOf = (items: Array<{ metadata: { annotations?: Record<string, string> } }>): string[] =>
    [...new Set(items.map((i) => i.metadata.annotations?.['kcp.io/cluster'] ?? '?'))].sort();

  beforeAll(async () => {
    app = await startAuthApp();
  });
  afterAll(async () => app?.stop());

  it.each([
    ['case 1: embedded list', () => instancesUrl(app, 'root')],
    ['case 2: embedded discovery', () => `${app.clusterUrl('root')}/api/v1`],
    ['case 3: embedded version', () => `${app.clusterUrl('root')}/version`],
    ['case 4: cache API list', () => cache('*', '*')],
  ])('%s: anonymous and unknown tokens get a 401 Status', async (_name, url) => {
    for (const token of [undefined, TOKENS.bad]) {
      const res = await call('GET', url(), token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    }
  });

  it('case 5: replication works through the internal credential while anonymous writes are refused', async () => {
    expect((await call('POST', instancesUrl(app, 'root'), undefined, { metadata: { name: 'anon' } })).status).toBe(401);
    expect((await call('POST', instancesUrl(app, 'root'), TOKENS.admin, { metadata: { name: 'replicated-late' } })).status).toBe(201);
    await eventually(async () => {
      const res = await call('GET', `${cache('embedded', 'root')}?labelSelector=cache.kcp.io/object-original-name=replicated-late`, TOKENS.admin);
      expect(res.body.items).toHaveLength(1);
    });
  });

  it('case 6: the root-only token gets 403 for team-b on both APIs, discovery included', async () => {
    for (const url of [instancesUrl(app, 'team-b'), `${app.clusterUrl('team-b')}/api/v1`, cache('embedded', 'team-b'), cache('*', 'team-b')]) {
      const res = await call('GET', url, TOKENS.rootOnly);
      expect(res.status, url).toBe(403);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    }
    expect((await call('GET', instancesUrl(app, 'root'), TOKENS.rootOnly)).status).toBe(200);
  });

  it('case 7: `*` lists of the root-only token hold root only; the admin\'s hold both', async () => {
    const embedded = await call('GET', instancesUrl(app, '*'), TOKENS.rootOnly);
    expect(clustersOf(embedded.body.items)).toEqual(['root']);
    const copies = await call('GET', `${cache('*', '*')}?labelSelector=cache.kcp.io/object-schema=${SCHEMA}`, TOKENS.rootOnly);
    expect(clustersOf(copies.body.items)).toEqual(['root']);
    const paged = await call('GET', `${cache('embedded', '*')}?limit=1`, TOKENS.rootOnly);
    expect(clustersOf(paged.body.items)).toEqual(['root']);
    const admin = await call('GET', `${cache('*', '*')}?labelSelector=cache.kcp.io/object-schema=${SCHEMA}`, TOKENS.admin);
    expect(clustersOf(admin.body.items)).toEqual(['root', 'team-b']);
    expect((await call('GET', `${instancesUrl(app, '*')}/web-team-b`, TOKENS.rootOnly)).status).toBe(404);
  });

  it('case 8: a `*` watch of the root-only token carries root\'s events only', async () => {
    const controller = new AbortController();
    const res = await fetch(`${instancesUrl(app, '*')}?watch=true`, { headers: { authorization: `Bearer ${TOKENS.rootOnly}` }, signal: controller.signal });
    expect(res.status).toBe(200);
    for (const cluster of ['team-b', 'root']) {
      expect((await call('POST', instancesUrl(app, cluster), TOKENS.admin, { metadata: { name: `watched-${cluster}` } })).status).toBe(201);
    }
    const text = await readUntil(res, 'watched-root');
    controller.abort();
    expect(text).toContain('watched-root');
    expect(text).not.toContain('watched-team-b');
  });

  it('case 9: writes: read-only is 403 everywhere, root-only in team-b and on `*`, the cache API stays read-only', async () => {
    const body = { metadata: { name: 'ro' } };
    expect((await call('POST', instancesUrl(app, 'root'), TOKENS.readOnly, body)).status).toBe(403);
    expect((await call('DELETE', `${instancesUrl(app, 'root')}/web-root`, TOKENS.readOnly)).status).toBe(403);
    expect((await call('POST', instancesUrl(app, 'team-b'), TOKENS.rootOnly, body)).status).toBe(403);
    expect((await call('DELETE', instancesUrl(app, '*'), TOKENS.rootOnly)).status).toBe(403);
    expect((await call('POST', cache('embedded', 'root'), TOKENS.admin, body)).status).toBe(405);
  });

  it('case 9b: a refused write is refused before its body is read: 403 for a malformed body, 405 on the cache API', async () => {
    const malformed = await call('POST', instancesUrl(app, 'root'), TOKENS.readOnly, '{"metadata": {', 'application/json');
    expect(malformed.status).toBe(403);
    expect(malformed.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    expect((await call('POST', instancesUrl(app, 'team-b'), TOKENS.rootOnly, 'name: x', 'text/plain')).status).toBe(403);
    const readOnly = await call('POST', cache('embedded', 'root'), TOKENS.admin, '{"metadata": {', 'application/json');
    expect(readOnly.status).toBe(405);
    expect(readOnly.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
  });

  it('case 10: kubectl with --token works (through TLS, the only way client-go sends a token); without one it is refused', async () => {
    const proxy = await startTlsProxy(app.url);
    try {
      await kubectlChecks(proxy.url);
    } finally {
      await proxy.close();
    }
  });

  it('case 11: kubectl auth can-i (with --list) and whoami answer each token about itself; a read-only token may ask too; anonymous is 401', async () => {
    const proxy = await startTlsProxy(app.url);
    try {
      const canI = async (cluster: string, token: string, verb: string): Promise<{ code: number; stdout: string }> => {
        const res = await kubectlFor(`${proxy.url}/clusters/${cluster}`).run(['--insecure-skip-tls-verify', '--token', token, 'auth', 'can-i', verb, 'configmaps'], '');
        return { code: res.code, stdout: res.stdout.trim() };
      };
      expect(await canI('root', TOKENS.rootOnly, 'create')).toEqual({ code: 0, stdout: 'yes' });
      expect(await canI('team-b', TOKENS.rootOnly, 'get')).toMatchObject({ code: 1, stdout: expect.stringMatching(/^no\b/) });
      expect(await canI('root', TOKENS.readOnly, 'list')).toEqual({ code: 0, stdout: 'yes' });
      expect(await canI('root', TOKENS.readOnly, 'delete')).toMatchObject({ code: 1, stdout: expect.stringMatching(/^no\b/) });
      const rules = await kubectlFor(`${proxy.url}/clusters/root`).ok(['--insecure-skip-tls-verify', '--token', TOKENS.readOnly, 'auth', 'can-i', '--list', '--no-headers'], '');
      expect(rules).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
      const noRules = await kubectlFor(`${proxy.url}/clusters/team-b`).ok(['--insecure-skip-tls-verify', '--token', TOKENS.rootOnly, 'auth', 'can-i', '--list', '--no-headers'], '');
      expect(noRules.trim()).toBe('');
      const whoami = await kubectlFor(`${proxy.url}/clusters/root`).ok(['--insecure-skip-tls-verify', '--token', TOKENS.readOnly, 'auth', 'whoami', '-o', 'json'], '');
      expect(JSON.parse(whoami)).toMatchObject({ kind: 'SelfSubjectReview', status: { userInfo: { username: 'auditor', groups: ['system:authenticated'] } } });
    } finally {
      await proxy.close();
    }
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'configmaps' } } };
    expect((await call('POST', `${app.clusterUrl('root')}/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`, undefined, review)).status).toBe(401);
    const onCache = await call('POST', `${app.url}/services/cache/shards/*/clusters/*/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`, TOKENS.admin, review);
    expect(onCache.status).toBe(201);
    expect(onCache.body.status).toEqual({ allowed: true });
  });

  it('case 12: a request asking to act as another user (kubectl --as, impersonation headers) is 403 on every API, never served as the token', async () => {
    const proxy = await startTlsProxy(app.url);
    try {
      const as = await kubectlFor(`${proxy.url}/clusters/root`).run(['--insecure-skip-tls-verify', '--token', TOKENS.admin, '--as', 'someone', 'get', 'configmaps'], '');
      // kubectl's discovery client shows a refused discovery as "Forbidden: unknown"; the message is checked below.
      expect(as.code).not.toBe(0);
      expect(as.stderr).toContain('Forbidden');
    } finally {
      await proxy.close();
    }
    const asUser = await request('GET', `${app.clusterUrl('root')}/api/v1/namespaces/default/configmaps`, undefined, 'application/json', { authorization: `Bearer ${TOKENS.admin}`, 'impersonate-user': 'someone' });
    expect(asUser.status).toBe(403);
    expect(asUser.body.message).toBe('users "someone" is forbidden: User "admin" cannot impersonate resource "users" in API group "" at the cluster scope: cachegate does not support impersonation');
    const headers = { authorization: `Bearer ${TOKENS.admin}`, 'impersonate-group': 'readers' };
    const rest = await fetch(`${app.url}/v1/schemas`, { headers });
    expect(rest.status).toBe(403);
    expect(await rest.json()).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    const extra = await fetch(`${app.clusterUrl('root')}/api/v1/namespaces`, { headers: { authorization: `Bearer ${TOKENS.admin}`, 'impersonate-extra-scopes': 'view' } });
    expect(extra.status).toBe(403);
    const graphql = await request('POST', `${app.url}/graphql`, { query: '{ __typename }' }, 'application/json', headers);
    expect(graphql.status).toBe(403);
    expect(graphql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await fetch(`${app.url}/v1/schemas`, { headers: { authorization: `Bearer ${TOKENS.admin}` } })).status).toBe(200);
  });

  // kubectl over https with --insecure-skip-tls-verify: the proxy's certificate is self-signed.
  const kubectlChecks = async (base: string): Promise<void> => {
    const at = (path: string) => {
      const kubectl = kubectlFor(`${base}${path}`);
      // stdin is closed at once: on a 401 without credentials kubectl would prompt for a user name.
      return { run: (args: string[]) => kubectl.run(['--insecure-skip-tls-verify', ...args], ''), ok: (args: string[]) => kubectl.ok(['--insecure-skip-tls-verify', ...args], '') };
    };
    const root = at('/clusters/root');
    const out = await root.ok(['--token', TOKENS.rootOnly, 'get', 'instances', '-o', 'name']);
    expect(out).toContain('instance.machines.svm.io/web-root');
    const denied = await at('/clusters/team-b').run(['--token', TOKENS.rootOnly, 'get', 'instances']);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toMatch(/forbidden|Forbidden/);
    // Anonymous over plain http (over TLS kubectl would prompt for a user name instead).
    const anonymous = await kubectlFor(app.clusterUrl('root')).run(['get', 'instances']);
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.stderr).toMatch(/Unauthorized|must be logged in/);
    const created = await root.ok(['--token', TOKENS.rootOnly, 'create', 'configmap', 'from-kubectl', '--from-literal=a=b']);
    expect(created).toContain('from-kubectl');
    const readOnly = await root.run(['--token', TOKENS.readOnly, 'create', 'configmap', 'refused', '--from-literal=a=b']);
    expect(readOnly.code).not.toBe(0);
    const copies = await at('/services/cache/shards/*/clusters/*').ok(['--token', TOKENS.rootOnly, 'get', 'cachedobjects', '-o', 'name']);
    expect(copies).toContain(`${SCHEMA}.web-root`);
    expect(copies).not.toContain(`${SCHEMA}.web-team-b`);
  };
});
