import { describe, it, expect } from 'vitest';
import {
  isCachedObjectUpToDate,
  unwrapCachedObject,
  wrapCachedObject,
} from '../../../src/cachedobjects/wrap-cached-object.js';
import type { WrapInput } from '../../../src/cachedobjects/wrap-cached-object.js';
import { hashedLabelValue, ORIGINAL_NAME_LABEL, SCHEMA_LABEL } from '../../../src/cachedobjects/cached-object-labels.js';
import {
  CLUSTER_ANNOTATION,
  IDENTITY_HASH_ANNOTATION,
  ORIGINAL_RESOURCE_UID_ANNOTATION,
  ORIGINAL_RESOURCE_VERSION_ANNOTATION,
  SHARD_ANNOTATION,
} from '../../../src/cachedobjects/cached-object-annotations.js';
import { deepFreeze } from '../../../src/apimachinery/object-meta.js';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { numbered } from '../apimachinery/numbered.js';
import { thrown } from '../../helpers/thrown.js';

const IDENTITY = 'cd2eb0837c9b4c962c22d2ff8b5441b7b45805887f051d39bf133b583baf6860';

function original(name = 'web-server-1', rv = '42'): KubeObject {
  return deepFreeze({
    apiVersion: 'machines.svm.io/v1alpha1',
    kind: 'Instance',
    metadata: { name, uid: 'u-1', resourceVersion: rv, labels: { app: 'web' }, annotations: { note: 'not copied' } },
    spec: { size: 'large' },
  });
}

function input(overrides: Partial<WrapInput> = {}): WrapInput {
  return {
    original: original(),
    gvr: { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' },
    shard: 'embedded',
    cluster: 'root',
    identityHash: IDENTITY,
    name: 'v1alpha1.instances.machines.svm.io.web-server-1',
    ...overrides,
  };
}

/** edited returns a mutable copy of a CachedObject with one change applied. */
function edited(co: KubeObject, change: (copy: { metadata: Record<string, Record<string, string>>; spec: Record<string, unknown> }) => void): KubeObject {
  const copy = structuredClone(co) as unknown as { metadata: Record<string, Record<string, string>>; spec: Record<string, unknown> };
  change(copy);
  return copy as unknown as KubeObject;
}

describe('wrapCachedObject', () => {
  it('case 1: builds the CachedObject with labels, annotations and spec.raw by reference', () => {
    const source = original();
    const co = wrapCachedObject(input({ original: source }));
    expect(co.apiVersion).toBe('cache.kcp.io/v1alpha1');
    expect(co.kind).toBe('CachedObject');
    expect(co.metadata.name).toBe('v1alpha1.instances.machines.svm.io.web-server-1');
    expect(co.metadata.namespace).toBeUndefined();
    expect(co.metadata.labels?.app).toBe('web');
    expect(co.metadata.labels?.[SCHEMA_LABEL]).toBe('v1alpha1.instances.machines.svm.io');
    expect(co.metadata.annotations).toEqual({
      [CLUSTER_ANNOTATION]: 'root',
      [SHARD_ANNOTATION]: 'embedded',
      [ORIGINAL_RESOURCE_VERSION_ANNOTATION]: '42',
      [ORIGINAL_RESOURCE_UID_ANNOTATION]: 'u-1',
      [IDENTITY_HASH_ANNOTATION]: IDENTITY,
    });
    expect((co.spec as { raw: unknown }).raw).toBe(source);
    expect(unwrapCachedObject(co)).toBe(source);
  });

  it('case 2: is deeply frozen', () => {
    const co = wrapCachedObject(input());
    expect(Object.isFrozen(co)).toBe(true);
    expect(Object.isFrozen(co.metadata)).toBe(true);
    expect(Object.isFrozen(co.metadata.labels)).toBe(true);
    expect(Object.isFrozen(co.metadata.annotations)).toBe(true);
    expect(Object.isFrozen(co.spec)).toBe(true);
  });

  it('case 3: hashed label annotations are kept next to ours', () => {
    const long = `n${'a'.repeat(80)}`;
    const co = wrapCachedObject(input({ original: original(long), name: 'x' }));
    expect(co.metadata.labels?.[ORIGINAL_NAME_LABEL]).toBe(hashedLabelValue(long));
    expect(co.metadata.annotations?.[ORIGINAL_NAME_LABEL]).toBe(long);
    expect(co.metadata.annotations?.[CLUSTER_ANNOTATION]).toBe('root');
  });

  it('case 4: no identity hash → no identity annotation', () => {
    const co = wrapCachedObject(input({ identityHash: '' }));
    expect(co.metadata.annotations).not.toHaveProperty(IDENTITY_HASH_ANNOTATION);
  });
});

describe('unwrapCachedObject errors', () => {
  const cases = numbered([
    { name: 'no spec', co: { metadata: { name: 'a' } } as KubeObject },
    { name: 'no spec.raw', co: { metadata: { name: 'a' }, spec: {} } as KubeObject },
    { name: 'spec.raw is not an object', co: { metadata: { name: 'a' }, spec: { raw: 'text' } } as KubeObject },
    { name: 'spec.raw has no metadata', co: { metadata: { name: 'a' }, spec: { raw: { kind: 'X' } } } as KubeObject },
  ]);

  it.each(cases)('case $n: $name → InternalError', ({ co }) => {
    expect(thrown(() => unwrapCachedObject(co)).code).toBe('InternalError');
  });
});

describe('isCachedObjectUpToDate', () => {
  const desired = wrapCachedObject(input());
  const cases = numbered([
    { name: 'missing copy', existing: undefined, want: false },
    { name: 'the same object', existing: desired, want: true },
    { name: 'an equal deep copy (raw not shared)', existing: structuredClone(desired), want: true },
    { name: 'edited original label', existing: edited(desired, (c) => { c.metadata.labels = { ...c.metadata.labels, app: 'db' }; }), want: false },
    { name: 'removed cachegate label', existing: edited(desired, (c) => { delete c.metadata.labels?.[SCHEMA_LABEL]; }), want: false },
    { name: 'added label', existing: edited(desired, (c) => { c.metadata.labels = { ...c.metadata.labels, extra: 'x' }; }), want: false },
    { name: 'edited annotation', existing: edited(desired, (c) => { c.metadata.annotations = { ...c.metadata.annotations, [CLUSTER_ANNOTATION]: 'other' }; }), want: false },
    { name: 'added annotation', existing: edited(desired, (c) => { c.metadata.annotations = { ...c.metadata.annotations, x: 'y' }; }), want: false },
    { name: 'edited raw', existing: edited(desired, (c) => { (c.spec.raw as { spec: { size: string } }).spec.size = 'small'; }), want: false },
    { name: 'field added next to raw', existing: edited(desired, (c) => { c.spec.extra = 1; }), want: false },
    { name: 'spec removed', existing: edited(desired, (c) => { delete (c as { spec?: unknown }).spec; }), want: false },
    { name: 'server-set metadata differs only', existing: { ...desired, metadata: { ...desired.metadata, resourceVersion: '7', uid: 'u' } }, want: true },
  ]);

  it.each(cases)('case $n: $name', ({ existing, want }) => {
    expect(isCachedObjectUpToDate(existing, desired)).toBe(want);
  });

  it('case 13: a newer original is not up to date', () => {
    expect(isCachedObjectUpToDate(desired, wrapCachedObject(input({ original: original('web-server-1', '43') })))).toBe(false);
  });
});
