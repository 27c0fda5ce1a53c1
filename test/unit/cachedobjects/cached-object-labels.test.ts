import { describe, it, expect } from 'vitest';
import {
  cachedObjectLabels,
  hashedLabelValue,
  GROUP_LABEL,
  ORIGINAL_NAME_LABEL,
  ORIGINAL_NAMESPACE_LABEL,
  RESOURCE_LABEL,
  SCHEMA_LABEL,
  VERSION_LABEL,
} from '../../../src/cachedobjects/cached-object-labels.js';
import { sha256Base36 } from '../../../src/cachedobjects/sha256-base36.js';
import type { GroupVersionResource } from '../../../src/apimachinery/gvr.js';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { isValidLabelValue } from '../../../src/apimachinery/validation.js';
import { numbered } from '../apimachinery/numbered.js';

const INSTANCES: GroupVersionResource = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const CONFIGMAPS: GroupVersionResource = { group: '', version: 'v1', resource: 'configmaps' };
const LONG_NAME = `n${'a'.repeat(70)}`;

function obj(name: string, namespace?: string, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'X', metadata: { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}) } };
}

describe('cachedObjectLabels', () => {
  const cases = numbered([
    {
      name: 'seed example, cluster-scoped',
      original: obj('web-server-1', undefined, { 'app.kubernetes.io/part-of': 'instances' }),
      gvr: INSTANCES,
      labels: {
        'app.kubernetes.io/part-of': 'instances',
        [SCHEMA_LABEL]: 'v1alpha1.instances.machines.svm.io',
        [GROUP_LABEL]: 'machines.svm.io',
        [VERSION_LABEL]: 'v1alpha1',
        [RESOURCE_LABEL]: 'instances',
        [ORIGINAL_NAME_LABEL]: 'web-server-1',
        [ORIGINAL_NAMESPACE_LABEL]: '',
      },
      annotations: {},
    },
    {
      name: 'namespaced configmap, group core',
      original: obj('settings', 'team-a'),
      gvr: CONFIGMAPS,
      labels: {
        [SCHEMA_LABEL]: 'v1.configmaps.core',
        [GROUP_LABEL]: 'core',
        [VERSION_LABEL]: 'v1',
        [RESOURCE_LABEL]: 'configmaps',
        [ORIGINAL_NAME_LABEL]: 'settings',
        [ORIGINAL_NAMESPACE_LABEL]: 'team-a',
      },
      annotations: {},
    },
    {
      name: 'our keys override the original labels of the same key',
      original: obj('a', 'ns', { [SCHEMA_LABEL]: 'forged', [ORIGINAL_NAME_LABEL]: 'forged', keep: 'me' }),
      gvr: CONFIGMAPS,
      labels: {
        keep: 'me',
        [SCHEMA_LABEL]: 'v1.configmaps.core',
        [GROUP_LABEL]: 'core',
        [VERSION_LABEL]: 'v1',
        [RESOURCE_LABEL]: 'configmaps',
        [ORIGINAL_NAME_LABEL]: 'a',
        [ORIGINAL_NAMESPACE_LABEL]: 'ns',
      },
      annotations: {},
    },
    {
      name: 'name over 63 characters is hashed, annotation holds it',
      original: obj(LONG_NAME),
      gvr: INSTANCES,
      labels: {
        [SCHEMA_LABEL]: 'v1alpha1.instances.machines.svm.io',
        [GROUP_LABEL]: 'machines.svm.io',
        [VERSION_LABEL]: 'v1alpha1',
        [RESOURCE_LABEL]: 'instances',
        [ORIGINAL_NAME_LABEL]: hashedLabelValue(LONG_NAME),
        [ORIGINAL_NAMESPACE_LABEL]: '',
      },
      annotations: { [ORIGINAL_NAME_LABEL]: LONG_NAME },
    },
  ]);

  it.each(cases)('case $n: $name', ({ original, gvr, labels, annotations }) => {
    expect(cachedObjectLabels(original, gvr)).toEqual({ labels, annotations });
  });
});

describe('cachedObjectLabels hashing of invalid label values', () => {
  const longGroup = `${'g'.repeat(60)}.example.com`;
  const cases = numbered([
    { name: 'long schema and group', gvr: { group: longGroup, version: 'v1', resource: 'things' }, objectName: 'a', hashedKeys: [SCHEMA_LABEL, GROUP_LABEL] },
    { name: 'schema just over 63', gvr: { group: 'g'.repeat(55), version: 'v1', resource: 'things' }, objectName: 'a', hashedKeys: [SCHEMA_LABEL] },
    { name: 'name with a colon', gvr: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles' }, objectName: 'system:x', hashedKeys: [ORIGINAL_NAME_LABEL] },
    { name: 'name of exactly 63 characters is kept', gvr: CONFIGMAPS, objectName: 'a'.repeat(63), hashedKeys: [] },
  ]);

  it.each(cases)('case $n: $name', ({ gvr, objectName, hashedKeys }) => {
    const { labels, annotations } = cachedObjectLabels(obj(objectName), gvr);
    expect(Object.keys(annotations).sort()).toEqual([...hashedKeys].sort());
    for (const key of hashedKeys) {
      const full = annotations[key] ?? '';
      expect(isValidLabelValue(full)).not.toEqual([]);
      expect(labels[key]).toBe(hashedLabelValue(full));
    }
    for (const value of Object.values(labels)) expect(isValidLabelValue(value)).toEqual([]);
  });
});

describe('hashedLabelValue', () => {
  const cases = numbered([
    { name: 'long name', value: 'x'.repeat(100) },
    { name: 'characters label values forbid', value: 'system:serviceaccount:a:b' },
    { name: 'empty-looking edge: a single invalid char', value: ':' },
  ]);

  it.each(cases)('case $n: $name', ({ value }) => {
    const got = hashedLabelValue(value);
    expect(got).toBe(`h-${sha256Base36(value).slice(0, 20)}`);
    expect(got).toHaveLength(22);
    expect(isValidLabelValue(got)).toEqual([]);
    expect(hashedLabelValue(value)).toBe(got);
  });

  it('case 4: different values give different hashes', () => {
    expect(hashedLabelValue('x'.repeat(100))).not.toBe(hashedLabelValue('x'.repeat(101)));
  });
});
