// Kubernetes' own limits on object metadata, with its messages: label keys and values, the total
// size of annotations (labels have none), finalizers, owner references and managed fields.

import { describe, expect, it } from 'vitest';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../src/apimachinery/validation.js';
import { numbered } from './numbered.js';

const RULES = { namespaced: false, nameRule: 'subdomain' } as const;
const a = (n: number): string => 'a'.repeat(n);
const meta = (fields: Record<string, unknown>): Record<string, unknown> => ({ name: 'x', ...fields });
const manyLabels = (n: number): Record<string, string> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`example.com/k${i}`, a(63)]));

describe('metadata limits', () => {
  it.each(numbered<{ name: string; meta: Record<string, unknown>; want: Array<{ field: string; message: string }> }>([
    { name: '20,000 labels of the longest value: no total size limit', meta: meta({ labels: manyLabels(20_000) }), want: [] },
    { name: 'label value of 63 bytes', meta: meta({ labels: { k: a(63) } }), want: [] },
    { name: 'label value of 64 bytes', meta: meta({ labels: { k: a(64) } }), want: [{ field: 'metadata.labels', message: `Invalid value: "${a(64)}": must be no more than 63 characters` }] },
    { name: 'label key name part of 64 bytes', meta: meta({ labels: { [a(64)]: 'v' } }), want: [{ field: 'metadata.labels', message: `Invalid value: "${a(64)}": name part must be no more than 63 characters` }] },
    { name: 'annotations of exactly 256 KiB', meta: meta({ annotations: { k: a(256 * 1024 - 1) } }), want: [] },
    { name: 'annotations one byte over 256 KiB', meta: meta({ annotations: { k: a(256 * 1024) } }), want: [{ field: 'metadata.annotations', message: 'Too long: may not be more than 262144 bytes' }] },
    { name: 'annotation size counts UTF-8 bytes', meta: meta({ annotations: { k: 'é'.repeat(128 * 1024) } }), want: [{ field: 'metadata.annotations', message: 'Too long: may not be more than 262144 bytes' }] },
    { name: 'qualified finalizers', meta: meta({ finalizers: ['example.com/a', 'kubernetes'] }), want: [] },
    { name: 'finalizer that is not a qualified name', meta: meta({ finalizers: ['a/b/c'] }), want: [{ field: 'metadata.finalizers', message: expect.stringContaining('Invalid value: "a/b/c": a qualified name must consist of') as unknown as string }] },
    {
      name: 'orphan and foregroundDeletion together',
      meta: meta({ finalizers: ['orphan', 'foregroundDeletion'] }),
      want: [{ field: 'metadata.finalizers', message: 'Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set' }],
    },
    { name: 'complete owner reference', meta: meta({ ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u' }] }), want: [] },
    {
      name: 'empty owner reference',
      meta: meta({ ownerReferences: [{}] }),
      want: [
        { field: 'metadata.ownerReferences.apiVersion', message: 'Invalid value: "": version must not be empty' },
        { field: 'metadata.ownerReferences.kind', message: 'Invalid value: "": must not be empty' },
        { field: 'metadata.ownerReferences.name', message: 'Invalid value: "": must not be empty' },
        { field: 'metadata.ownerReferences.uid', message: 'Invalid value: "": must not be empty' },
      ],
    },
    {
      name: 'an Event as owner',
      meta: meta({ ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] }),
      want: [{ field: 'metadata.ownerReferences', message: expect.stringContaining('/v1, Kind=Event is disallowed from being an owner') as unknown as string }],
    },
    {
      name: 'two controllers',
      meta: meta({ ownerReferences: [{ apiVersion: 'v1', kind: 'A', name: 'a', uid: '1', controller: true }, { apiVersion: 'v1', kind: 'B', name: 'b', uid: '2', controller: true }] }),
      want: [{ field: 'metadata.ownerReferences', message: expect.stringContaining('Only one reference can have Controller set to true. Found "true" in references for A/a and B/b') as unknown as string }],
    },
    { name: 'managed fields entry', meta: meta({ managedFields: [{ manager: 'kubectl', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: {} }] }), want: [] },
    {
      name: 'managed fields entry with every mistake',
      meta: meta({ managedFields: [{ manager: `${a(128)}\u0007`, operation: 'Patch', fieldsType: 'FieldsV2', subresource: a(257) }] }),
      want: [
        { field: 'metadata.managedFields[0].operation', message: 'Invalid value: "Patch": must be `Apply` or `Update`' },
        { field: 'metadata.managedFields[0].fieldsType', message: 'Invalid value: "FieldsV2": must be `FieldsV1`' },
        { field: 'metadata.managedFields[0].manager', message: 'Too long: may not be more than 128 bytes' },
        { field: 'metadata.managedFields[0].manager', message: `Invalid value: "${a(128)}\\u0007": invalid character U+0007 (at position 128)` },
        { field: 'metadata.managedFields[0].subresource', message: 'Too long: may not be more than 256 bytes' },
      ],
    },
  ]))('case $n: $name', ({ meta: m, want }) => {
    expect(validateObjectMeta(m, RULES).map(({ field, message }) => ({ field, message }))).toEqual(want);
  });

  it.each(numbered([
    { name: 'not being deleted: finalizers may be added', old: { finalizers: ['a.io/x'] }, next: ['a.io/x', 'a.io/y'], want: 0 },
    { name: 'being deleted: finalizers may be removed', old: { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['a.io/x', 'a.io/y'] }, next: ['a.io/y'], want: 0 },
    { name: 'being deleted: a new finalizer is forbidden', old: { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['a.io/x'] }, next: ['a.io/x', 'a.io/z', 'a.io/y'], want: 1 },
  ]))('case $n: update, $name', ({ old, next, want }) => {
    const causes = validateObjectMetaUpdate({ name: 'x', finalizers: next }, old);
    expect(causes).toHaveLength(want);
    if (want > 0) expect(causes[0]?.message).toBe('Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a.io/y", "a.io/z"}');
  });
});
