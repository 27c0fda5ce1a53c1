// Server-side apply on the embedded API: the real kubectl (`apply --server-side`) and plain HTTP.
//   case 1: kubectl apply --server-side creates a ConfigMap, then updates it
//   case 2: kubectl apply --server-side creates and updates a custom resource
//   case 3: another manager applying a different value fails naming the conflict
//   case 4: --force-conflicts wins and takes the field over
//   case 5: a field removed from the applied file disappears from the object
//   case 6: get -o yaml --show-managed-fields shows the managers and their fields
//   case 7: apply without fieldManager is 400 (no longer 415)
//   case 8: a conflict is a 409 Status with FieldManagerConflict causes
//   case 9: dryRun=All creates nothing
//   case 10: apply creates with 201, a repeated apply is 200 and stores nothing new
//   case 11: a merge patch records an Update entry that a later apply conflicts with
//   case 12: an unreadable YAML body is 400
//   case 13: the Python client's server_side_apply creates, conflicts, and forces

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';
import { DEADLINE_MS, eventually, request } from '../helpers/kube-http.js';
import { kubectlFor } from '../helpers/kubectl.js';
import type { Kubectl } from '../helpers/kubectl.js';

const APPLY = 'application/apply-patch+yaml';
const PYTHON = '/usr/bin/python3';
const PY_SCRIPT = fileURLToPath(new URL('./python/server_side_apply.py', import.meta.url));

/** runPython runs the Python apply script and parses the one JSON line it prints. */
function runPython(args: readonly string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(PYTHON, [PY_SCRIPT, ...args], { timeout: 2 * DEADLINE_MS }, (err, stdout, stderr) => {
      if (err) reject(new Error(`python failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Record<string, unknown>);
    });
  });
}

const CRD_YAML = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.ssa.test
spec:
  group: ssa.test
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;

function configMap(name: string, data: Record<string, string>): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: default}\ndata: ${JSON.stringify(data)}\n`;
}

describe('server-side apply', () => {
  let app: TestApp;
  let kubectl: Kubectl;
  let base: string;

  beforeAll(async () => {
    app = await startTestApp();
    base = app.clusterUrl('root');
    kubectl = kubectlFor(base);
  });
  afterAll(async () => app?.stop());

  async function getJson(args: readonly string[]): Promise<Record<string, unknown>> {
    return JSON.parse(await kubectl.ok([...args, '-o', 'json'])) as Record<string, unknown>;
  }

  it('case 1: kubectl apply --server-side creates a ConfigMap, then updates it', async () => {
    expect(await kubectl.ok(['apply', '--server-side', '-f', '-'], configMap('c1', { a: '1' }))).toContain('configmap/c1 serverside-applied');
    expect(await kubectl.ok(['apply', '--server-side', '-f', '-'], configMap('c1', { a: '2', b: '3' }))).toContain('configmap/c1 serverside-applied');
    expect((await getJson(['get', 'configmap', 'c1']))['data']).toEqual({ a: '2', b: '3' });
  });

  it('case 2: kubectl apply --server-side creates and updates a custom resource', async () => {
    await kubectl.ok(['apply', '-f', '-'], CRD_YAML);
    const gadget = (size: string, tags: string): string =>
      `apiVersion: ssa.test/v1\nkind: Gadget\nmetadata: {name: g1, namespace: default}\nspec: {size: ${size}, tags: ${tags}}\n`;
    await eventually(async () => expect(await kubectl.ok(['apply', '--server-side', '-f', '-'], gadget('small', '[a, b]'))).toContain('gadget.ssa.test/g1 serverside-applied'));
    await kubectl.ok(['apply', '--server-side', '-f', '-'], gadget('large', '[c]'));
    // Lists of a schemaless object are atomic: the applied list replaces the stored one.
    expect((await getJson(['get', 'gadget', 'g1']))['spec']).toEqual({ size: 'large', tags: ['c'] });
  });

  it('case 3: another manager applying a different value fails naming the conflict', async () => {
    await kubectl.ok(['apply', '--server-side', '-f', '-'], configMap('c3', { color: 'red' }));
    const result = await kubectl.run(['apply', '--server-side', '--field-manager=other', '-f', '-'], configMap('c3', { color: 'blue' }));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .data.color');
    expect((await getJson(['get', 'configmap', 'c3']))['data']).toEqual({ color: 'red' });
  });

  it('case 4: --force-conflicts wins and takes the field over', async () => {
    await kubectl.ok(['apply', '--server-side', '-f', '-'], configMap('c4', { color: 'red', size: 's' }));
    await kubectl.ok(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'], configMap('c4', { color: 'blue' }));
    const cm = await getJson(['get', 'configmap', 'c4', '--show-managed-fields']);
    expect(cm['data']).toEqual({ color: 'blue', size: 's' });
    const entries = (cm['metadata'] as { managedFields: Array<{ manager: string; fieldsV1: unknown }> }).managedFields;
    expect(entries.find((e) => e.manager === 'kubectl')?.fieldsV1).toEqual({ 'f:data': { 'f:size': {} } });
    expect(entries.find((e) => e.manager === 'other')?.fieldsV1).toEqual({ 'f:data': { 'f:color': {} } });
  });

  it('case 5: a field removed from the applied file disappears from the object', async () => {
    await kubectl.ok(['apply', '--server-side', '-f', '-'], configMap('c5', { keep: '1', drop: '2' }));
    await kubectl.ok(['apply', '--server-side', '-f', '-'], configMap('c5', { keep: '1' }));
    expect((await getJson(['get', 'configmap', 'c5']))['data']).toEqual({ keep: '1' });
  });

  it('case 6: get -o yaml --show-managed-fields shows the managers and their fields', async () => {
    await kubectl.ok(['apply', '--server-side', '-f', '-'], configMap('c6', { k: 'v' }));
    const out = await kubectl.ok(['get', 'configmap', 'c6', '-o', 'yaml', '--show-managed-fields']);
    expect(out).toContain('managedFields:');
    expect(out).toContain('manager: kubectl');
    expect(out).toContain('operation: Apply');
    expect(out).toContain('f:k: {}');
  });

  it('case 7: apply without fieldManager is 400 (no longer 415)', async () => {
    const res = await request('PATCH', `${base}/api/v1/namespaces/default/configmaps/c7`, configMap('c7', { a: '1' }), APPLY);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'PATCH requests with apply content type need fieldManager' });
  });

  it('case 8: a conflict is a 409 Status with FieldManagerConflict causes', async () => {
    const url = `${base}/api/v1/namespaces/default/configmaps/c8`;
    expect((await request('PATCH', `${url}?fieldManager=first`, configMap('c8', { a: '1', b: '1' }), APPLY)).status).toBe(201);
    const res = await request('PATCH', `${url}?fieldManager=second`, configMap('c8', { a: '2', b: '2' }), APPLY);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409,
      message: 'Apply failed with 2 conflicts: conflicts with "first":\n- .data.a\n- .data.b',
      details: { causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "first"', field: '.data.a' },
        { reason: 'FieldManagerConflict', message: 'conflict with "first"', field: '.data.b' },
      ] },
    });
    const forced = await request('PATCH', `${url}?fieldManager=second&force=true`, configMap('c8', { a: '2' }), APPLY);
    expect(forced.status).toBe(200);
    expect(forced.body.data).toEqual({ a: '2', b: '1' });
  });

  it('case 9: dryRun=All creates nothing', async () => {
    const url = `${base}/api/v1/namespaces/default/configmaps/c9`;
    const res = await request('PATCH', `${url}?fieldManager=m&dryRun=All`, configMap('c9', { a: '1' }), APPLY);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ a: '1' });
    expect((await request('GET', url)).status).toBe(404);
  });

  it('case 10: apply creates with 201, a repeated apply is 200 and stores nothing new', async () => {
    const url = `${base}/api/v1/namespaces/default/configmaps/c10?fieldManager=m`;
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c10' }, data: { a: '1' } });
    const created = await request('PATCH', url, body, APPLY);
    expect(created.status).toBe(201);
    expect(created.body.metadata.managedFields).toEqual([{
      manager: 'm', operation: 'Apply', apiVersion: 'v1', time: expect.stringMatching(/Z$/), fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:a': {} } },
    }]);
    const again = await request('PATCH', url, body, APPLY);
    expect(again.status).toBe(200);
    expect(again.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
  });

  it('case 11: a merge patch records an Update entry that a later apply conflicts with', async () => {
    const url = `${base}/api/v1/namespaces/default/configmaps/c11`;
    expect((await request('PATCH', `${url}?fieldManager=m`, configMap('c11', { a: '1' }), APPLY)).status).toBe(201);
    const patched = await request('PATCH', `${url}?fieldManager=editor`, { data: { a: 'edited' } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    const editor = patched.body.metadata.managedFields.find((e: { manager: string }) => e.manager === 'editor');
    expect(editor).toMatchObject({ operation: 'Update', fieldsV1: { 'f:data': { 'f:a': {} } } });
    const res = await request('PATCH', `${url}?fieldManager=m`, configMap('c11', { a: '1' }), APPLY);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^Apply failed with 1 conflict: conflict with "editor" using v1 at \S+Z: \.data\.a$/);
  });

  it('case 12: an unreadable YAML body is 400', async () => {
    const res = await request('PATCH', `${base}/api/v1/namespaces/default/configmaps/c12?fieldManager=m`, 'data: [unclosed', APPLY);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
  });

  it('case 13: the Python client\'s server_side_apply creates, conflicts, and forces', async () => {
    const url = app.clusterUrl('root');
    expect(await runPython([url, 'default', 'py1', 'python-a', 'k=1'])).toEqual({ data: { k: '1' }, managers: ['python-a'] });
    const conflict = await runPython([url, 'default', 'py1', 'python-b', 'k=2']);
    expect(conflict).toMatchObject({ error: 409, body: { reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "python-a": .data.k' } });
    expect(await runPython([url, 'default', 'py1', 'python-b', 'k=2', '--force'])).toEqual({ data: { k: '2' }, managers: ['python-b'] });
  });
});
