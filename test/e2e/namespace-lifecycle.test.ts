// Deleting a namespace of the embedded source, as kube-apiserver and its namespace controller do,
// driven over HTTP and with kubectl:
//   case 1: DELETE answers the namespace Terminating; its contents go, then the namespace
//   case 2: a create in a Terminating namespace is 403 Forbidden; a namespace of the same name is 409
//   case 3: an object held by a finalizer keeps the namespace Terminating, marked itself; once its
//           finalizer is removed both go, and a new namespace of that name starts empty
//   case 4: `kubectl delete -f` of a file holding a namespace and objects in it exits 0

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, eventually, request } from '../helpers/kube-http.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';

describe('namespace lifecycle', () => {
  let app: TestApp;
  let root: string;

  beforeAll(async () => {
    app = await startTestApp();
    root = app.clusterUrl('root');
  });
  afterAll(async () => app?.stop());

  const namespace = (name: string): Promise<{ status: number }> => request('POST', `${root}/api/v1/namespaces`, { metadata: { name } });
  const configMap = (ns: string, name: string, extra: Record<string, unknown> = {}): ReturnType<typeof request> =>
    request('POST', `${root}/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, ...extra } });
  const gone = async (url: string): Promise<void> => eventually(async () => expect((await request('GET', url)).status).toBe(404), DEADLINE_MS);

  it('case 1: DELETE answers Terminating; the contents go, then the namespace', async () => {
    expect((await namespace('team-1')).status).toBe(201);
    expect((await configMap('team-1', 'a')).status).toBe(201);
    const deleted = await request('DELETE', `${root}/api/v1/namespaces/team-1`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.status.phase).toBe('Terminating');
    expect(deleted.body.metadata.deletionTimestamp).toEqual(expect.any(String));
    await gone(`${root}/api/v1/namespaces/team-1/configmaps/a`);
    await gone(`${root}/api/v1/namespaces/team-1`);
  });

  it('case 2: creates in a Terminating namespace are 403, a namespace of the same name 409', async () => {
    expect((await namespace('team-2')).status).toBe(201);
    expect((await configMap('team-2', 'held', { finalizers: ['example.com/hold'] })).status).toBe(201);
    expect((await request('DELETE', `${root}/api/v1/namespaces/team-2`)).status).toBe(200);
    const refused = await configMap('team-2', 'late');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    expect(refused.body.message).toBe('configmaps "late" is forbidden: unable to create new content in namespace team-2 because it is being terminated');
    expect((await namespace('team-2')).status).toBe(409);
    await request('PATCH', `${root}/api/v1/namespaces/team-2/configmaps/held`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    await gone(`${root}/api/v1/namespaces/team-2`);
  });

  it('case 3: an object held by a finalizer keeps the namespace Terminating until it goes', async () => {
    expect((await namespace('team-3')).status).toBe(201);
    expect((await configMap('team-3', 'held', { finalizers: ['example.com/hold'] })).status).toBe(201);
    expect((await configMap('team-3', 'free')).status).toBe(201);
    expect((await request('DELETE', `${root}/api/v1/namespaces/team-3`)).status).toBe(200);
    await gone(`${root}/api/v1/namespaces/team-3/configmaps/free`);
    const held = await request('GET', `${root}/api/v1/namespaces/team-3/configmaps/held`);
    expect(held.body.metadata.deletionTimestamp).toEqual(expect.any(String));
    const terminating = await request('GET', `${root}/api/v1/namespaces/team-3`);
    expect(terminating.status).toBe(200);
    expect(terminating.body.status.phase).toBe('Terminating');
    const released = await request('PATCH', `${root}/api/v1/namespaces/team-3/configmaps/held`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect(released.status).toBe(200);
    await gone(`${root}/api/v1/namespaces/team-3/configmaps/held`);
    await gone(`${root}/api/v1/namespaces/team-3`);
    expect((await namespace('team-3')).status).toBe(201);
    expect((await request('GET', `${root}/api/v1/namespaces/team-3/configmaps`)).body.items).toEqual([]);
  });

  it('case 4: kubectl delete -f of a namespace and the objects in it exits 0', async () => {
    const manifest = `
apiVersion: v1
kind: Namespace
metadata: {name: team-4}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: one, namespace: team-4}
data: {a: b}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: two, namespace: team-4}
`;
    const kubectl = kubectlFor(root);
    await kubectl.ok(['apply', '-f', '-'], manifest);
    const result = await kubectl.run(['delete', '-f', '-'], manifest);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    await gone(`${root}/api/v1/namespaces/team-4`);
  });
});
