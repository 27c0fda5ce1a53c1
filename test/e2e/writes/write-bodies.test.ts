// Bodies of the REST facade's writes as clients send them: kubectl and the client libraries name
// application/json on a DELETE with no body at all, which kube-apiserver accepts.
//   case 1: DELETE with Content-Type application/json and an empty body: 200, the object is gone
//   case 2: DELETE with Content-Type application/json and a body of whitespace: 200
//   case 3: POST with Content-Type application/json and an empty body: 400 naming the missing object
//   case 4: POST with a body that is not JSON: 400 saying why it could not be decoded
//   case 5: a server-side apply (YAML) goes to the source with its fieldManager: it creates, then
//           merges, and the source's managedFields name the manager; without fieldManager the
//           source's 400 comes back; a conflicting apply is 409 unless forced

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const OBJECTS = '/v1/objects/core/v1/configmaps';

describe('write bodies on the REST facade', () => {
  let app: TestApp;
  let objects: string;

  beforeAll(async () => {
    app = await startTestApp();
    objects = `${app.url}${OBJECTS}`;
  });
  afterAll(async () => app?.stop());

  const create = async (name: string): Promise<void> => {
    const created = await request('POST', `${objects}?cluster=root&namespace=default`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
    expect(created.status).toBe(201);
  };
  const send = (method: string, url: string, body: string): Promise<Response> =>
    fetch(url, { method, headers: { 'content-type': 'application/json' }, body });

  it('case 1: DELETE with application/json and an empty body is accepted', async () => {
    await create('empty-body');
    const res = await send('DELETE', `${objects}/empty-body?cluster=root&namespace=default`, '');
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await request('GET', `${app.clusterUrl()}/api/v1/namespaces/default/configmaps/empty-body`)).status).toBe(404);
  });

  it('case 2: DELETE with application/json and a body of whitespace is accepted', async () => {
    await create('blank-body');
    const res = await send('DELETE', `${objects}/blank-body?cluster=root&namespace=default`, ' \n');
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('case 3: POST with application/json and an empty body is a 400 naming the missing object', async () => {
    const res = await send('POST', `${objects}?cluster=root&namespace=default`, '');
    expect(res.status).toBe(400);
    const status = (await res.json()) as { kind: string; reason: string; message: string };
    expect(status).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(status.message).toContain('the request body must be a JSON object');
  });

  it('case 4: POST with a body that is not JSON is a 400 saying why', async () => {
    const res = await send('POST', `${objects}?cluster=root&namespace=default`, '{"metadata":');
    expect(res.status).toBe(400);
    const status = (await res.json()) as { reason: string; message: string };
    expect(status.reason).toBe('BadRequest');
    expect(status.message).toMatch(/^error decoding request body: /);
  });

  it('case 5: a server-side apply goes to the source with its fieldManager', async () => {
    const apply = (body: string, query: string): Promise<Response> =>
      fetch(`${objects}/applied?cluster=root&namespace=default${query}`, { method: 'PATCH', headers: { 'content-type': 'application/apply-patch+yaml' }, body });
    const first = await apply('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: default}\ndata: {a: "1"}\n', '&fieldManager=team-a');
    expect(first.status, await first.clone().text()).toBe(200);
    const second = await apply('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: default}\ndata: {a: "1", b: "2"}\n', '&fieldManager=team-a');
    expect(second.status).toBe(200);
    const stored = await request('GET', `${app.clusterUrl()}/api/v1/namespaces/default/configmaps/applied`);
    expect(stored.body.data).toEqual({ a: '1', b: '2' });
    expect(stored.body.metadata.managedFields.map((entry: { manager: string; operation: string }) => `${entry.manager}/${entry.operation}`)).toContain('team-a/Apply');
    const unnamed = await apply('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied}\n', '');
    expect(unnamed.status).toBe(400);
    const conflicting = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: default}\ndata: {a: "other"}\n';
    expect((await apply(conflicting, '&fieldManager=team-b')).status).toBe(409);
    expect((await apply(conflicting, '&fieldManager=team-b&force=true')).status).toBe(200);
  });
});
