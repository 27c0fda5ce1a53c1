import { describe, it, expect } from 'vitest';
import { invalidError, validateObjectMeta } from '../../../src/apimachinery/validation.js';
import type { ObjectMetaRules } from '../../../src/apimachinery/validation.js';
import { numbered } from './numbered.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QNAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const a = (n: number): string => 'a'.repeat(n);

describe('validateObjectMeta', () => {
  const ns: ObjectMetaRules = { namespaced: true, nameRule: 'subdomain' };
  const cluster: ObjectMetaRules = { namespaced: false, nameRule: 'subdomain' };
  const big = 'x'.repeat(256 * 1024 - 1);
  const cases = numbered<{ name: string; meta: unknown; rules: ObjectMetaRules; want: { reason: string; field: string; message: string }[] }>([
    { name: 'valid namespaced', meta: { name: 'a.b', namespace: 'ns' }, rules: ns, want: [] },
    { name: 'valid cluster-scoped', meta: { name: 'a' }, rules: cluster, want: [] },
    {
      name: 'name or generateName required',
      meta: { namespace: 'ns' },
      rules: ns,
      want: [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }],
    },
    {
      name: 'empty name is missing',
      meta: { name: '' },
      rules: cluster,
      want: [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }],
    },
    { name: 'generateName alone, trailing dash allowed', meta: { generateName: 'web-' }, rules: cluster, want: [] },
    {
      name: 'invalid generateName',
      meta: { generateName: 'Web-' },
      rules: cluster,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.generateName', message: `Invalid value: "Web-": ${SUBDOMAIN_MSG}` }],
    },
    {
      name: 'invalid name (subdomain)',
      meta: { name: 'Foo_Bar' },
      rules: cluster,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "Foo_Bar": ${SUBDOMAIN_MSG}` }],
    },
    { name: '253-character name', meta: { name: a(253) }, rules: cluster, want: [] },
    {
      name: '254-character name',
      meta: { name: a(254) },
      rules: cluster,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "${a(254)}": must be no more than 253 characters` }],
    },
    {
      name: 'name with dots under the label rule',
      meta: { name: 'a.b' },
      rules: { namespaced: false, nameRule: 'label' },
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: 'Invalid value: "a.b": must not contain dots' }],
    },
    {
      name: '64-character name under the label rule',
      meta: { name: a(64) },
      rules: { namespaced: false, nameRule: 'label' },
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "${a(64)}": must be no more than 63 characters` }],
    },
    { name: 'path-segment rule accepts uppercase', meta: { name: 'Foo_Bar' }, rules: { namespaced: false, nameRule: 'path-segment' }, want: [] },
    {
      name: 'path-segment rule rejects a slash',
      meta: { name: 'a/b' },
      rules: { namespaced: false, nameRule: 'path-segment' },
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "a/b": may not contain '/'` }],
    },
    {
      name: 'path-segment prefix rejects a percent',
      meta: { generateName: 'a%' },
      rules: { namespaced: false, nameRule: 'path-segment' },
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.generateName', message: `Invalid value: "a%": may not contain '%'` }],
    },
    {
      name: 'namespace required',
      meta: { name: 'a' },
      rules: ns,
      want: [{ reason: 'FieldValueRequired', field: 'metadata.namespace', message: 'Required value' }],
    },
    {
      name: 'invalid namespace',
      meta: { name: 'a', namespace: 'Ns' },
      rules: ns,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.namespace', message: `Invalid value: "Ns": ${LABEL_MSG}` }],
    },
    {
      name: 'namespace on a cluster-scoped object',
      meta: { name: 'a', namespace: 'ns' },
      rules: cluster,
      want: [{ reason: 'FieldValueForbidden', field: 'metadata.namespace', message: 'Forbidden: not allowed on this type' }],
    },
    { name: 'valid labels', meta: { name: 'a', labels: { 'example.com/app': 'web', empty: '' } }, rules: cluster, want: [] },
    {
      name: 'invalid label key',
      meta: { name: 'a', labels: { 'app_': 'web' } },
      rules: cluster,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.labels', message: `Invalid value: "app_": ${QNAME_MSG}` }],
    },
    {
      name: 'invalid label value',
      meta: { name: 'a', labels: { app: '-web' } },
      rules: cluster,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.labels', message: `Invalid value: "-web": ${VALUE_MSG}` }],
    },
    {
      name: 'label value not a string',
      meta: { name: 'a', labels: { app: 1 } },
      rules: cluster,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.labels', message: 'Invalid value: 1: must be a string' }],
    },
    {
      name: 'labels not an object',
      meta: { name: 'a', labels: ['x'] },
      rules: cluster,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.labels', message: 'Invalid value: ["x"]: must be an object' }],
    },
    { name: 'annotation keys ignore case', meta: { name: 'a', annotations: { 'Example.com/Note': 'any text at all' } }, rules: cluster, want: [] },
    {
      name: 'invalid annotation key',
      meta: { name: 'a', annotations: { 'a b': 'x' } },
      rules: cluster,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.annotations', message: `Invalid value: "a b": ${QNAME_MSG}` }],
    },
    { name: 'annotations of exactly 256 KiB', meta: { name: 'a', annotations: { k: big } }, rules: cluster, want: [] },
    {
      name: 'annotations over 256 KiB',
      meta: { name: 'a', annotations: { k: `${big}x` } },
      rules: cluster,
      want: [{ reason: 'FieldValueTooLong', field: 'metadata.annotations', message: 'Too long: may not be more than 262144 bytes' }],
    },
    { name: 'metadata missing', meta: undefined, rules: cluster, want: [{ reason: 'FieldValueRequired', field: 'metadata', message: 'Required value' }] },
    {
      name: 'metadata not an object',
      meta: 'x',
      rules: cluster,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata', message: 'Invalid value: "x": must be an object' }],
    },
    {
      name: 'name not a string',
      meta: { name: 5 },
      rules: cluster,
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: 'Invalid value: 5: must be a string' }],
    },
    {
      name: 'several problems are all reported',
      meta: { name: 'A', namespace: 'ns', labels: { k: '-' } },
      rules: cluster,
      want: [
        { reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "A": ${SUBDOMAIN_MSG}` },
        { reason: 'FieldValueForbidden', field: 'metadata.namespace', message: 'Forbidden: not allowed on this type' },
        { reason: 'FieldValueInvalid', field: 'metadata.labels', message: `Invalid value: "-": ${VALUE_MSG}` },
      ],
    },
  ]);

  it.each(cases)('case $n: $name', ({ meta, rules, want }) => {
    expect(validateObjectMeta(meta, rules)).toEqual(want);
  });
});

describe('invalidError', () => {
  const required = { reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' };
  const badLabel = { reason: 'FieldValueInvalid', field: 'metadata.labels', message: 'Invalid value: "-": bad' };
  const cases = numbered([
    {
      name: 'one cause, core group',
      args: ['Pod', 'p', [required], ''] as const,
      message: 'Pod "p" is invalid: metadata.name: Required value: name or generateName is required',
      details: { name: 'p', group: '', kind: 'Pod', causes: [required] },
    },
    {
      name: 'two causes with a group',
      args: ['Deployment', 'd', [required, badLabel], 'apps'] as const,
      message: 'Deployment.apps "d" is invalid: metadata.name: Required value: name or generateName is required, metadata.labels: Invalid value: "-": bad',
      details: { name: 'd', group: 'apps', kind: 'Deployment', causes: [required, badLabel] },
    },
    {
      name: 'no group given',
      args: ['Thing', 't', [{ reason: 'FieldValueInvalid', message: 'whole object is wrong' }], undefined] as const,
      message: 'Thing "t" is invalid: whole object is wrong',
      details: { name: 't', kind: 'Thing', causes: [{ reason: 'FieldValueInvalid', message: 'whole object is wrong' }] },
    },
    { name: 'no causes', args: ['Pod', 'p', [], undefined] as const, message: 'Pod "p" is invalid', details: { name: 'p', kind: 'Pod', causes: [] } },
  ]);

  it.each(cases)('case $n: $name', ({ args, message, details }) => {
    const err = invalidError(args[0], args[1], args[2], args[3]);
    expect(err.code).toBe('Invalid');
    expect(err.httpStatus).toBe(422);
    expect(err.message).toBe(message);
    expect(err.details).toStrictEqual(details);
  });
});
