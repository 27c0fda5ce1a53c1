// The pure pieces of server-side apply: field sets and FieldsV1, merge, conflicts, removal, and
// the ownership ordinary updates record.
//   case 1: fieldsOf lists leaves, keyed items with `.`, set values, atomic lists whole
//   case 2: FieldsV1 round-trips, `.` marks an item that also has fields
//   case 3: merge: maps key by key, atomic lists replaced, sets united, keyed lists by key
//   case 4: equal values are shared, a different value is a conflict with kube's message
//   case 5: force takes the conflicting field over, the other owner keeps the rest
//   case 6: a field the applier stopped sending is removed, unless another manager owns it
//   case 7: a keyed item the applier dropped is removed; another's field under it keeps it
//   case 8: an update owns what it changed and takes it from the other managers
//   case 9: a repeated apply is reported unchanged
//   case 10: pathString renders kube's path syntax

import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../../src/errors.js';
import type { KubeObject } from '../../../../src/apimachinery/object-meta.js';
import { applyToObject } from '../../../../src/apiserver/apply/apply-object.js';
import { pathString } from '../../../../src/apiserver/apply/field-path.js';
import { FieldSet } from '../../../../src/apiserver/apply/field-set.js';
import { fieldsOf } from '../../../../src/apiserver/apply/fields-of.js';
import { listTypesFor } from '../../../../src/apiserver/apply/list-types.js';
import { mergeApplied } from '../../../../src/apiserver/apply/merge-applied.js';
import { recordUpdate } from '../../../../src/apiserver/apply/record-update.js';

const CM = listTypesFor('', 'ConfigMap');
const NOW = '2026-01-02T03:04:05Z';

type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };

function apply(live: KubeObject | undefined, applied: Obj, manager: string, force = false): Obj {
  const result = applyToObject({ live, applied, manager, force, apiVersion: 'v1', listTypes: CM, now: NOW });
  if (result.unchanged) throw new Error('unexpectedly unchanged');
  return result.object;
}

function cm(data: Record<string, string>, extra: Record<string, unknown> = {}): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd', ...extra }, data };
}

function owned(obj: Obj, manager: string): unknown {
  const entries = obj.metadata['managedFields'] as Array<{ manager: string; fieldsV1: unknown }>;
  return entries.find((e) => e.manager === manager)?.fieldsV1;
}

describe('server-side apply pieces', () => {
  it('case 1: fieldsOf lists leaves, keyed items with `.`, set values, atomic lists whole', () => {
    const obj = {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'x', labels: { app: 'a' }, finalizers: ['f1'], ownerReferences: [{ uid: 'u1', name: 'o' }] },
      data: { k: 'v' }, spec: { list: [1, 2] },
    };
    expect(fieldsOf(obj, CM).toFieldsV1()).toEqual({
      'f:data': { 'f:k': {} },
      'f:metadata': {
        'f:finalizers': { 'v:"f1"': {} },
        'f:labels': { 'f:app': {} },
        'f:ownerReferences': { 'k:{"uid":"u1"}': { '.': {}, 'f:name': {}, 'f:uid': {} } },
      },
      'f:spec': { 'f:list': {} },
    });
  });

  it('case 2: FieldsV1 round-trips, `.` marks an item that also has fields', () => {
    const tree = { 'f:metadata': { 'f:ownerReferences': { 'k:{"uid":"u1"}': { '.': {}, 'f:name': {} } } }, 'f:spec': { 'f:a': {} } };
    const set = FieldSet.fromFieldsV1(tree);
    expect(set.size).toBe(3);
    expect(set.has(['f:metadata', 'f:ownerReferences', 'k:{"uid":"u1"}'])).toBe(true);
    expect(set.toFieldsV1()).toEqual(tree);
  });

  it('case 3: merge: maps key by key, atomic lists replaced, sets united, keyed lists by key', () => {
    const live = { metadata: { labels: { a: '1', b: '2' }, finalizers: ['x'], ownerReferences: [{ uid: 'u1', name: 'one' }] }, spec: { list: [1, 2], n: 1 } };
    const applied = { metadata: { labels: { b: '3' }, finalizers: ['y'], ownerReferences: [{ uid: 'u1', kind: 'K' }, { uid: 'u2' }] }, spec: { list: [3] } };
    expect(mergeApplied(live, applied, CM)).toEqual({
      metadata: { labels: { a: '1', b: '3' }, finalizers: ['x', 'y'], ownerReferences: [{ uid: 'u1', name: 'one', kind: 'K' }, { uid: 'u2' }] },
      spec: { list: [3], n: 1 },
    });
  });

  it('case 4: equal values are shared, a different value is a conflict with kube\'s message', () => {
    const first = apply(undefined, cm({ a: '1', b: '1' }), 'first') as unknown as KubeObject;
    const shared = apply(first, cm({ a: '1' }), 'second');
    expect(owned(shared, 'first')).toEqual({ 'f:data': { 'f:a': {}, 'f:b': {} } });
    expect(owned(shared, 'second')).toEqual({ 'f:data': { 'f:a': {} } });
    let thrown: unknown;
    try {
      apply(first, cm({ a: '2' }), 'second');
    } catch (err) {
      thrown = err;
    }
    expect(isAppError(thrown, 'Conflict')).toBe(true);
    expect((thrown as Error).message).toBe('Apply failed with 1 conflict: conflict with "first": .data.a');
  });

  it('case 5: force takes the conflicting field over, the other owner keeps the rest', () => {
    const first = apply(undefined, cm({ a: '1', b: '1' }), 'first') as unknown as KubeObject;
    const forced = apply(first, cm({ a: '2' }), 'second', true);
    expect(forced['data']).toEqual({ a: '2', b: '1' });
    expect(owned(forced, 'first')).toEqual({ 'f:data': { 'f:b': {} } });
    expect(owned(forced, 'second')).toEqual({ 'f:data': { 'f:a': {} } });
  });

  it('case 6: a field the applier stopped sending is removed, unless another manager owns it', () => {
    const first = apply(undefined, cm({ a: '1', b: '1', c: '1' }), 'first') as unknown as KubeObject;
    const shared = apply(first, cm({ c: '1' }), 'second') as unknown as KubeObject;
    const after = apply(shared, cm({ a: '1' }), 'first');
    expect(after['data']).toEqual({ a: '1', c: '1' });
    expect(owned(after, 'first')).toEqual({ 'f:data': { 'f:a': {} } });
  });

  it('case 7: a keyed item the applier dropped is removed; another\'s field under it keeps it', () => {
    const refs = (items: Array<Record<string, string>>): Obj => cm({}, { ownerReferences: items });
    const first = apply(undefined, refs([{ uid: 'u1', name: 'a' }, { uid: 'u2', name: 'b' }]), 'first') as unknown as KubeObject;
    expect((apply(first, refs([{ uid: 'u1', name: 'a' }]), 'first').metadata['ownerReferences'])).toEqual([{ uid: 'u1', name: 'a' }]);
    const shared = apply(first, refs([{ uid: 'u2', name: 'b' }]), 'second') as unknown as KubeObject;
    expect((apply(shared, refs([{ uid: 'u1', name: 'a' }]), 'first').metadata['ownerReferences'])).toEqual([{ uid: 'u1', name: 'a' }, { uid: 'u2', name: 'b' }]);
  });

  it('case 8: an update owns what it changed and takes it from the other managers', () => {
    const applied = apply(undefined, cm({ a: '1', b: '1' }), 'applier') as unknown as KubeObject;
    const next = { ...structuredClone(applied), data: { a: 'edited', b: '1', c: 'new' } } as Obj;
    delete next.metadata['managedFields'];
    recordUpdate({ old: applied, next, manager: 'editor', apiVersion: 'v1', listTypes: CM, now: NOW, ignoreStatus: false });
    expect(owned(next, 'applier')).toEqual({ 'f:data': { 'f:b': {} } });
    expect(owned(next, 'editor')).toEqual({ 'f:data': { 'f:a': {}, 'f:c': {} } });
  });

  it('case 9: a repeated apply is reported unchanged', () => {
    const first = apply(undefined, cm({ a: '1' }), 'first') as unknown as KubeObject;
    const again = applyToObject({ live: first, applied: cm({ a: '1' }), manager: 'first', force: false, apiVersion: 'v1', listTypes: CM, now: '2030-01-01T00:00:00Z' });
    expect(again.unchanged).toBe(true);
  });

  it('case 10: pathString renders kube\'s path syntax', () => {
    expect(pathString(['f:spec', 'f:replicas'])).toBe('.spec.replicas');
    expect(pathString(['f:metadata', 'f:ownerReferences', 'k:{"uid":"1"}', 'f:name'])).toBe('.metadata.ownerReferences[uid="1"].name');
    expect(pathString(['f:metadata', 'f:finalizers', 'v:"a"'])).toBe('.metadata.finalizers[="a"]');
    expect(pathString(['f:spec', 'f:list', 'i:0'])).toBe('.spec.list[0]');
  });
});
