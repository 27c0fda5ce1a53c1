// The per-kind validation of the embedded source's built-in types, after decoding: what Kubernetes'
// ValidateConfigMap, ValidateSecret and ValidateNamespace check, and the ClusterCachedResource
// schema as kube-apiserver's custom resource validation reports it.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { validateSchema } from '../../../src/apimachinery/structural-schema.js';
import { CCR_SCHEMA } from '../../../src/apiserver/embedded/ccr-schema.js';
import { validateConfigMap } from '../../../src/apiserver/embedded/configmap-hooks.js';
import { validateNamespaceSpec } from '../../../src/apiserver/embedded/namespace-hooks.js';
import { validateSecret } from '../../../src/apiserver/embedded/secret-hooks.js';
import { numbered } from '../apimachinery/numbered.js';

type Cause = { field?: string; message: string };
const brief = (causes: readonly Cause[]): Cause[] => causes.map(({ field, message }) => ({ field, message }));
const stored = (fields: Record<string, unknown>): KubeObject => ({ metadata: { name: 'x' }, ...fields });
const KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const IMMUTABLE = 'Forbidden: field is immutable when `immutable` is set';

describe('validateConfigMap', () => {
  it.each(numbered<{ name: string; obj: Record<string, unknown>; old?: KubeObject; want: Cause[] }>([
    { name: 'valid keys and sizes', obj: { data: { 'a.b_c-D': 'x', '.dot': 'y' }, binaryData: { bin: 'eA==' } }, want: [] },
    { name: 'key with a space', obj: { data: { 'a b': 'x' } }, want: [{ field: 'data[a b]', message: `Invalid value: "a b": ${KEY_MSG}` }] },
    { name: 'key ..', obj: { binaryData: { '..': 'eA==' } }, want: [{ field: 'binaryData[..]', message: 'Invalid value: "..": must not be \'..\'' }] },
    { name: 'key starting with ..', obj: { data: { '..x': 'v' } }, want: [{ field: 'data[..x]', message: 'Invalid value: "..x": must not start with \'..\'' }] },
    { name: 'key over 253 bytes', obj: { data: { ['k'.repeat(254)]: 'v' } }, want: [{ field: `data[${'k'.repeat(254)}]`, message: `Invalid value: "${'k'.repeat(254)}": must be no more than 253 characters` }] },
    { name: 'key in data and binaryData', obj: { data: { k: 'x' }, binaryData: { k: 'eA==' } }, want: [{ field: 'data[k]', message: 'Invalid value: "k": duplicate of key present in binaryData' }] },
    { name: '1 MiB exactly (binaryData counts decoded bytes)', obj: { data: { a: 'x'.repeat(1024 * 1024 - 3) }, binaryData: { b: Buffer.alloc(3).toString('base64') } }, want: [] },
    { name: 'one byte over 1 MiB', obj: { data: { a: 'x'.repeat(1024 * 1024 - 3) }, binaryData: { b: Buffer.alloc(4).toString('base64') } }, want: [{ field: '[]', message: 'Too long: may not be more than 1048576 bytes' }] },
    { name: 'immutable: data may not change', obj: { immutable: true, data: { a: '2' } }, old: stored({ immutable: true, data: { a: '1' } }), want: [{ field: 'data', message: IMMUTABLE }] },
    { name: 'immutable: the mark may not be removed', obj: { data: { a: '1' } }, old: stored({ immutable: true, data: { a: '1' } }), want: [{ field: 'immutable', message: IMMUTABLE }] },
    { name: 'immutable: metadata may change', obj: { immutable: true, data: { a: '1' } }, old: stored({ immutable: true, data: { a: '1' } }), want: [] },
  ]))('case $n: $name', ({ obj, old, want }) => {
    expect(brief(validateConfigMap(obj, old))).toEqual(want);
  });
});

describe('validateSecret', () => {
  const secret = (fields: Record<string, unknown>, annotations: Record<string, string> = {}) => ({ metadata: { name: 's', annotations }, type: 'Opaque', ...fields });
  it.each(numbered<{ name: string; obj: ReturnType<typeof secret>; old?: KubeObject; want: Cause[] }>([
    { name: 'opaque with any valid keys', obj: secret({ data: { a: 'eA==' } }), want: [] },
    { name: 'invalid key', obj: secret({ data: { 'a/b': 'eA==' } }), want: [{ field: 'data[a/b]', message: `Invalid value: "a/b": ${KEY_MSG}` }] },
    { name: 'over 1 MiB of decoded data', obj: secret({ data: { a: Buffer.alloc(1024 * 1024 + 1).toString('base64') } }), want: [{ field: 'data', message: 'Too long: may not be more than 1048576 bytes' }] },
    { name: 'tls without its keys', obj: secret({ type: 'kubernetes.io/tls', data: {} }), want: [{ field: 'data[tls.crt]', message: 'Required value' }, { field: 'data[tls.key]', message: 'Required value' }] },
    { name: 'basic-auth with a username only', obj: secret({ type: 'kubernetes.io/basic-auth', data: { username: 'eA==' } }), want: [] },
    { name: 'basic-auth with neither', obj: secret({ type: 'kubernetes.io/basic-auth' }), want: [{ field: 'data[username]', message: 'Required value' }, { field: 'data[password]', message: 'Required value' }] },
    { name: 'ssh-auth with an empty key', obj: secret({ type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } }), want: [{ field: 'data[ssh-privatekey]', message: 'Required value' }] },
    { name: 'service account token without its account', obj: secret({ type: 'kubernetes.io/service-account-token' }), want: [{ field: 'metadata.annotations[kubernetes.io/service-account.name]', message: 'Required value' }] },
    { name: 'service account token with its account', obj: secret({ type: 'kubernetes.io/service-account-token' }, { 'kubernetes.io/service-account.name': 'default' }), want: [] },
    { name: 'a custom type named like an Object member needs nothing', obj: secret({ type: 'constructor' }), want: [] },
    { name: 'update may not change the type', obj: secret({ type: 'example.com/other' }), old: stored({ type: 'Opaque' }), want: [{ field: 'type', message: 'Invalid value: "example.com/other": field is immutable' }] },
    { name: 'update of immutable data', obj: secret({ immutable: true, data: { a: 'eQ==' } }), old: stored({ type: 'Opaque', immutable: true, data: { a: 'eA==' } }), want: [{ field: 'data', message: IMMUTABLE }] },
  ]))('case $n: $name', ({ obj, old, want }) => {
    expect(brief(validateSecret(obj, old))).toEqual(want);
  });
});

describe('validateNamespaceSpec', () => {
  it.each(numbered([
    { spec: { finalizers: ['kubernetes', 'orphan', 'example.com/x'] }, want: [] },
    { spec: { finalizers: ['mine'] }, want: [{ field: 'spec.finalizers', message: 'Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified' }] },
    { spec: undefined, want: [] },
  ]))('case $n: $spec.finalizers', ({ spec, want }) => {
    expect(brief(validateNamespaceSpec(spec))).toEqual(want);
  });
});

describe('ClusterCachedResource schema', () => {
  const ccr = (spec: unknown, status?: unknown) => ({ apiVersion: 'cache.kcp.io/v1alpha1', kind: 'ClusterCachedResource', metadata: { name: 'c' }, spec, ...(status ? { status } : {}) });
  const gvr = { group: 'g.io', version: 'v1', resource: 'things' };
  it.each(numbered<{ name: string; obj: unknown; want: Cause[] }>([
    { name: 'valid, with selector and status', obj: ccr({ ...gvr, labelSelector: { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] } }, { phase: 'Ready', resourceCounts: { local: 1, cache: 1 }, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', severity: 'Info' }] }), want: [] },
    { name: 'no spec', obj: { metadata: { name: 'c' } }, want: [{ field: 'spec', message: 'Required value' }] },
    { name: 'spec.version missing and resource of the wrong type', obj: ccr({ resource: 5 }), want: [{ field: 'spec.version', message: 'Required value' }, { field: 'spec.resource', message: 'Invalid value: "integer": spec.resource in body must be of type string: "integer"' }] },
    { name: 'resource not matching its pattern', obj: ccr({ ...gvr, resource: 'Things' }), want: [{ field: 'spec.resource', message: 'Invalid value: "Things": spec.resource in body should match \'^[a-z][-a-z0-9]*[a-z0-9]$\'' }] },
    { name: 'matchLabels value that is a number', obj: ccr({ ...gvr, labelSelector: { matchLabels: { a: 1 } } }), want: [{ field: 'spec.labelSelector.matchLabels.a', message: 'Invalid value: "integer": spec.labelSelector.matchLabels.a in body must be of type string: "integer"' }] },
    { name: 'secretRef without its name', obj: ccr({ ...gvr, identity: { secretRef: { namespace: 'n' } } }), want: [{ field: 'spec.identity.secretRef.name', message: 'Required value' }] },
    { name: 'count that is a fraction', obj: ccr(gvr, { resourceCounts: { cache: 1.5 } }), want: [{ field: 'status.resourceCounts.cache', message: 'Invalid value: "number": status.resourceCounts.cache in body must be of type integer: "number"' }] },
    { name: 'condition time that is not a date-time', obj: ccr(gvr, { conditions: [{ type: 'A', status: 'True', lastTransitionTime: 'now' }] }), want: [{ field: 'status.conditions[0].lastTransitionTime', message: 'Invalid value: "now": status.conditions[0].lastTransitionTime in body must be of type date-time: "now"' }] },
  ]))('case $n: $name', ({ obj, want }) => {
    expect(brief(validateSchema(obj, CCR_SCHEMA))).toEqual(want);
  });
});
