// The embedded API refuses built-in objects of the wrong shape as kube-apiserver does: a request
// body that does not decode into its Go type is 400 BadRequest with the decoder's words naming
// the field; a decoded object that breaks the kind's rules is 422 Invalid with causes naming the
// field; a patch whose result does not decode is 422 on `patch`. Real app, real HTTP, kubectl.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, request } from '../helpers/kube-http.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { CCRS, ccr } from '../helpers/replication.js';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';
import { numbered } from '../unit/apimachinery/numbered.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const SECRETS = '/api/v1/namespaces/default/secrets';
const NAMESPACES = '/api/v1/namespaces';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const INSTANCES = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const CM_PREFIX = 'ConfigMap in version "v1" cannot be handled as a ConfigMap: ';

interface Expect {
  readonly code: 400 | 422;
  /** message is contained in the Status message. */
  readonly message: string;
  /** field is a cause's field (422 only). */
  readonly field?: string;
}

const cm = (fields: Record<string, unknown>, name = 'bad'): Record<string, unknown> => ({ metadata: { name }, ...fields });
const secret = (fields: Record<string, unknown>): Record<string, unknown> => ({ metadata: { name: 'bad' }, ...fields });
const instancesCrd = crd({ group: 'machines.svm.io', plural: 'instances', kind: 'Instance' }) as { metadata: object; spec: Record<string, unknown> };

const CREATES = numbered<{ name: string; path: string; body: unknown; want: Expect }>([
  { name: 'ConfigMap data value that is an object', path: CMS, body: cm({ data: { a: { b: 'c' } } }), want: { code: 400, message: `${CM_PREFIX}json: cannot unmarshal object into Go struct field ConfigMap.data of type string` } },
  { name: 'ConfigMap data value that is a number', path: CMS, body: cm({ data: { a: 1 } }), want: { code: 400, message: 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string' } },
  { name: 'ConfigMap data that is a list', path: CMS, body: cm({ data: ['a'] }), want: { code: 400, message: 'json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string' } },
  { name: 'ConfigMap binaryData that is not base64', path: CMS, body: cm({ binaryData: { a: 'not base64!' } }), want: { code: 400, message: `${CM_PREFIX}illegal base64 data at input byte 3` } },
  { name: 'ConfigMap immutable that is a string', path: CMS, body: cm({ immutable: 'yes' }), want: { code: 400, message: 'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool' } },
  { name: 'label value that is a number', path: CMS, body: { metadata: { name: 'bad', labels: { a: 1 } } }, want: { code: 400, message: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string' } },
  { name: 'metadata that is a string', path: CMS, body: { metadata: 'bad' }, want: { code: 400, message: 'json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta' } },
  { name: 'creationTimestamp that is not a time', path: CMS, body: { metadata: { name: 'bad', creationTimestamp: 'yesterday' } }, want: { code: 400, message: 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"' } },
  { name: 'ConfigMap key that is not a config key', path: CMS, body: cm({ data: { 'a b': 'x' } }), want: { code: 422, field: 'data[a b]', message: "a valid config key must consist of alphanumeric characters, '-', '_' or '.'" } },
  { name: 'ConfigMap key in both data and binaryData', path: CMS, body: cm({ data: { k: 'x' }, binaryData: { k: 'eA==' } }), want: { code: 422, field: 'data[k]', message: 'data[k]: Invalid value: "k": duplicate of key present in binaryData' } },
  { name: 'ConfigMap over 1 MiB', path: CMS, body: cm({ data: { a: 'x'.repeat(1024 * 1024), b: 'y' } }), want: { code: 422, field: '[]', message: '[]: Too long: may not be more than 1048576 bytes' } },
  { name: 'Secret data that is not base64', path: SECRETS, body: secret({ data: { a: 'c2VjcmV0!' } }), want: { code: 400, message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 8' } },
  { name: 'Secret stringData value that is a number', path: SECRETS, body: secret({ stringData: { a: 5 } }), want: { code: 400, message: 'json: cannot unmarshal number into Go struct field Secret.stringData of type string' } },
  { name: 'Secret key that is not a config key', path: SECRETS, body: secret({ stringData: { 'a/b': 'x' } }), want: { code: 422, field: 'data[a/b]', message: 'a valid config key' } },
  { name: 'TLS Secret without its keys', path: SECRETS, body: secret({ type: 'kubernetes.io/tls', stringData: { other: 'x' } }), want: { code: 422, field: 'data[tls.key]', message: 'data[tls.crt]: Required value' } },
  { name: 'Namespace spec.finalizers that is a string', path: NAMESPACES, body: { metadata: { name: 'bad' }, spec: { finalizers: 'kubernetes' } }, want: { code: 400, message: 'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal string into Go struct field NamespaceSpec.spec.finalizers of type []v1.FinalizerName' } },
  { name: 'Namespace finalizer that is neither standard nor qualified', path: NAMESPACES, body: { metadata: { name: 'bad' }, spec: { finalizers: ['mine'] } }, want: { code: 422, field: 'spec.finalizers', message: 'name is neither a standard finalizer name nor is it fully qualified' } },
  { name: 'CRD spec.group that is a number', path: CRDS, body: { ...instancesCrd, spec: { ...instancesCrd.spec, group: 7 } }, want: { code: 400, message: 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal number into Go struct field CustomResourceDefinitionSpec.spec.group of type string' } },
  { name: 'CRD version served that is a string', path: CRDS, body: { ...instancesCrd, spec: { ...instancesCrd.spec, versions: [{ name: 'v1', served: 'yes', storage: true }] } }, want: { code: 400, message: 'json: cannot unmarshal string into Go struct field CustomResourceDefinitionVersion.spec.versions.served of type bool' } },
  { name: 'CCR spec.group that is a number', path: CCRS, body: ccr('bad', { ...INSTANCES, group: 5 as unknown as string }), want: { code: 422, field: 'spec.group', message: 'spec.group: Invalid value: "integer": spec.group in body must be of type string: "integer"' } },
  { name: 'CCR labelSelector that is a string', path: CCRS, body: { ...ccr('bad', INSTANCES), spec: { ...INSTANCES, labelSelector: 'app=x' } }, want: { code: 422, field: 'spec.labelSelector', message: 'spec.labelSelector in body must be of type object: "string"' } },
  { name: 'CCR without spec.resource', path: CCRS, body: { ...ccr('bad', INSTANCES), spec: { group: 'machines.svm.io', version: 'v1alpha1' } }, want: { code: 422, field: 'spec.resource', message: 'spec.resource: Required value' } },
  { name: 'CCR selector operator not supported', path: CCRS, body: { ...ccr('bad', INSTANCES), spec: { ...INSTANCES, labelSelector: { matchExpressions: [{ key: 'a', operator: 'Maybe' }] } } }, want: { code: 422, field: 'spec.labelSelector.matchExpressions[0].operator', message: 'Unsupported value: "Maybe": supported values: "In", "NotIn", "Exists", "DoesNotExist"' } },
  { name: 'finalizer that is not a qualified name', path: CMS, body: { metadata: { name: 'bad', finalizers: ['a b'] } }, want: { code: 422, field: 'metadata.finalizers', message: 'metadata.finalizers: Invalid value: "a b"' } },
  { name: 'owner reference without uid', path: CMS, body: { metadata: { name: 'bad', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p' }] } }, want: { code: 422, field: 'metadata.ownerReferences.uid', message: 'metadata.ownerReferences.uid: Invalid value: "": must not be empty' } },
  { name: 'managedFields with an unknown operation', path: CMS, body: { metadata: { name: 'bad', managedFields: [{ manager: 'me', operation: 'Bogus' }] } }, want: { code: 422, field: 'metadata.managedFields[0].operation', message: 'must be `Apply` or `Update`' } },
  { name: 'annotations over 256 KiB', path: CMS, body: { metadata: { name: 'bad', annotations: { a: 'x'.repeat(256 * 1024) } } }, want: { code: 422, field: 'metadata.annotations', message: 'metadata.annotations: Too long: may not be more than 262144 bytes' } },
]);

function expectRefused(res: { status: number; body: { message: string; reason: string; details?: { causes?: Array<{ field?: string }> } } }, want: Expect): void {
  expect(res.status).toBe(want.code);
  expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', code: want.code, reason: want.code === 400 ? 'BadRequest' : 'Invalid' });
  expect(res.body.message).toContain(want.message);
  if (want.field !== undefined) expect(res.body.details?.causes?.map((c) => c.field)).toContain(want.field);
}

describe('kube object types and validation on every write', () => {
  let app: TestApp;
  let root: string;

  beforeAll(async () => {
    app = await startTestApp();
    root = app.clusterUrl('root');
    expect((await request('POST', `${root}${CRDS}`, instancesCrd)).status).toBe(201);
  });
  afterAll(async () => app?.stop());

  it.each(CREATES)('case $n: create: $name → $want.code', async ({ path, body, want }) => {
    const res = await request('POST', `${root}${path}`, body);
    expectRefused(res, want);
    expect((await request('GET', `${root}${path}/bad`)).status).toBe(404);
  });

  it(`case ${CREATES.length + 1}: valid objects of every built-in type are still created (201)`, async () => {
    const valid: Array<[string, unknown]> = [
      [CMS, cm({ data: { 'app.conf': 'x=1', '.hidden': 'y' }, binaryData: { logo: Buffer.from('png').toString('base64') }, immutable: false }, 'good')],
      [SECRETS, { metadata: { name: 'good' }, type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'c', 'tls.key': 'k' } }],
      [NAMESPACES, { metadata: { name: 'good', finalizers: ['example.com/keep'] }, spec: { finalizers: ['kubernetes', 'example.com/x'] } }],
      [CCRS, ccr('good', INSTANCES, { app: 'x' })],
      [CMS, { metadata: { name: 'owned', creationTimestamp: '2026-01-02T03:04:05.123Z', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1', controller: true }] } }],
    ];
    for (const [path, body] of valid) {
      const res = await request('POST', `${root}${path}`, body);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
    }
  });

  it(`case ${CREATES.length + 2}: update (PUT) of a ConfigMap with a data value of the wrong type is 400 and changes nothing`, async () => {
    const created = await request('POST', `${root}${CMS}`, cm({ data: { a: 'b' } }, 'put-me'));
    const res = await request('PUT', `${root}${CMS}/put-me`, { ...created.body, data: { a: ['list'] } });
    expectRefused(res, { code: 400, message: `${CM_PREFIX}json: cannot unmarshal array into Go struct field ConfigMap.data of type string` });
    expect((await request('GET', `${root}${CMS}/put-me`)).body.data).toEqual({ a: 'b' });
  });

  it.each(numbered([
    { name: 'merge patch making a data value a number', type: 'application/merge-patch+json', patch: { data: { a: 5 } }, want: 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string' },
    { name: 'JSON patch adding binaryData that is not base64', type: 'application/json-patch+json', patch: [{ op: 'add', path: '/binaryData', value: { b: '%%%' } }], want: 'illegal base64 data at input byte 0' },
    { name: 'strategic merge patch making data a string', type: 'application/strategic-merge-patch+json', patch: { data: 'x' }, want: 'json: cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string' },
  ]).map((row) => ({ ...row, n: row.n + CREATES.length + 2 })))('case $n: $name is 422 on `patch` and changes nothing', async ({ type, patch, want }) => {
    await request('POST', `${root}${CMS}`, cm({ data: { a: 'b' } }, 'patch-me'));
    const res = await request('PATCH', `${root}${CMS}/patch-me`, patch, type);
    expectRefused(res, { code: 422, field: 'patch', message: ` "" is invalid: patch: Invalid value: "{` });
    expect(res.body.message).toContain(want);
    expect((await request('GET', `${root}${CMS}/patch-me`)).body.data).toEqual({ a: 'b' });
  });

  it(`case ${CREATES.length + 6}: a patch whose result breaks a ConfigMap rule is 422 naming the field`, async () => {
    await request('POST', `${root}${CMS}`, cm({ data: { a: 'b' } }, 'rule-patch'));
    const res = await request('PATCH', `${root}${CMS}/rule-patch`, { binaryData: { a: 'eA==' } }, 'application/merge-patch+json');
    expectRefused(res, { code: 422, field: 'data[a]', message: 'duplicate of key present in binaryData' });
  });

  it(`case ${CREATES.length + 7}: status writes are checked too: a Namespace status phase that is a number is 400, a CCR count that is a string is 422`, async () => {
    const ns = await request('GET', `${root}${NAMESPACES}/default`);
    const nsRes = await request('PUT', `${root}${NAMESPACES}/default/status`, { ...ns.body, status: { phase: 1 } });
    expectRefused(nsRes, { code: 400, message: 'json: cannot unmarshal number into Go struct field NamespaceStatus.status.phase of type v1.NamespacePhase' });
    const good = await request('GET', `${root}${CCRS}/good`);
    const ccrRes = await request('PUT', `${root}${CCRS}/good/status`, { ...good.body, status: { resourceCounts: { local: 'many' } } });
    expectRefused(ccrRes, { code: 422, field: 'status.resourceCounts.local', message: 'status.resourceCounts.local in body must be of type integer: "string"' });
    const patched = await request('PATCH', `${root}${CCRS}/good/status`, { status: { phase: 'Sleeping' } }, 'application/merge-patch+json');
    expectRefused(patched, { code: 422, field: 'status.phase', message: 'Unsupported value: "Sleeping"' });
  });

  it(`case ${CREATES.length + 8}: an object being deleted may lose finalizers but not gain them`, async () => {
    await request('POST', `${root}${CMS}`, { metadata: { name: 'held', finalizers: ['example.com/a'] } });
    expect((await request('DELETE', `${root}${CMS}/held`)).status).toBe(200);
    const res = await request('PATCH', `${root}${CMS}/held`, { metadata: { finalizers: ['example.com/a', 'example.com/b'] } }, 'application/merge-patch+json');
    expectRefused(res, { code: 422, field: 'metadata.finalizers', message: 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}' });
    expect((await request('PATCH', `${root}${CMS}/held`, { metadata: { finalizers: [] } }, 'application/merge-patch+json')).status).toBe(200);
  });

  it(`case ${CREATES.length + 9}: kubectl shows the decoder's and the validator's words`, async () => {
    const kubectl = kubectlFor(root);
    const decode = await kubectl.run(['create', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kubectl-bad}\ndata: {a: {b: c}}\n');
    expect(decode.code).not.toBe(0);
    expect(decode.stderr).toContain(`Error from server (BadRequest): error when creating "STDIN": ${CM_PREFIX}json: cannot unmarshal object into Go struct field ConfigMap.data of type string`);
    const invalid = await kubectl.run(['create', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kubectl-bad}\ndata: {"a b": c}\n');
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain('The ConfigMap "kubectl-bad" is invalid: data[a b]: Invalid value: "a b"');
  });
});
