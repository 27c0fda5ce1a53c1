import { describe, it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { cachedObjectName, hashedName, isReadableName } from '../../../src/cachedobjects/cached-object-name.js';
import { schemaOf } from '../../../src/apimachinery/gvr.js';
import { sha256Base36 } from '../../../src/cachedobjects/sha256-base36.js';
import type { GroupVersionResource } from '../../../src/apimachinery/gvr.js';
import { isDNS1123Subdomain } from '../../../src/apimachinery/validation.js';
import { numbered } from '../apimachinery/numbered.js';
import { thrown } from '../../helpers/thrown.js';

const INSTANCES: GroupVersionResource = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const CONFIGMAPS: GroupVersionResource = { group: '', version: 'v1', resource: 'configmaps' };
const LONG_NAME = `n${'a'.repeat(250)}`;

describe('sha256Base36', () => {
  const cases = numbered([
    { name: 'empty string', text: '', want: '5oaq0bjhj6un82wg98mgigso5q7qlhc63je4gw7ivixqqhkd3p' },
    { name: 'hash input of a configmap', text: 'core/v1/configmaps/team-a/settings', want: '5olf26w0o6jg5j3h094nkcrccv5u7np518pkm9ruuerzxzge9' },
  ]);

  it.each(cases)('case $n: $name', ({ text, want }) => {
    expect(sha256Base36(text)).toBe(want);
    const digest = createHash('sha256').update(text).digest('hex');
    expect(BigInt(`0x${digest}`).toString(36)).toBe(want);
  });
});

describe('cachedObjectName readable names', () => {
  const cases = numbered([
    { name: 'cluster-scoped seed example', gvr: INSTANCES, namespace: '', object: 'web-server-1', want: 'v1alpha1.instances.machines.svm.io.web-server-1' },
    { name: 'namespaced configmap uses core', gvr: CONFIGMAPS, namespace: 'team-a', object: 'settings', want: 'v1.configmaps.core.team-a.settings' },
    { name: 'name with dots', gvr: CONFIGMAPS, namespace: 'ns', object: 'a.b.c', want: 'v1.configmaps.core.ns.a.b.c' },
  ]);

  it.each(cases)('case $n: $name', ({ gvr, namespace, object, want }) => {
    expect(cachedObjectName(gvr, namespace, object)).toBe(want);
    expect(cachedObjectName(gvr, namespace, object, () => false)).toBe(want);
  });
});

describe('cachedObjectName hashed names', () => {
  const cases = numbered([
    { name: 'longer than 253 characters', gvr: INSTANCES, namespace: '', object: LONG_NAME, taken: [] as string[] },
    { name: 'namespaced and too long', gvr: CONFIGMAPS, namespace: 'team-a', object: LONG_NAME, taken: [] },
    { name: 'readable name taken by another original', gvr: INSTANCES, namespace: '', object: 'web-server-1', taken: ['v1alpha1.instances.machines.svm.io.web-server-1'] },
    { name: 'not a valid object name (colon)', gvr: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' }, namespace: '', object: 'system:admin', taken: [] },
  ]);

  it.each(cases)('case $n: $name', ({ gvr, namespace, object, taken }) => {
    const got = cachedObjectName(gvr, namespace, object, (candidate) => taken.includes(candidate));
    expect(got).toBe(hashedName(gvr, namespace, object));
    expect(got.length).toBeLessThanOrEqual(253);
    expect(isDNS1123Subdomain(got)).toEqual([]);
  });

  it('case 5: hashed name is `<schema>.<base36 sha256 of group/version/resource/namespace/name>`', () => {
    expect(hashedName(CONFIGMAPS, 'team-a', 'settings')).toBe(`v1.configmaps.core.${sha256Base36('core/v1/configmaps/team-a/settings')}`);
    expect(hashedName(INSTANCES, '', 'x')).toBe(`v1alpha1.instances.machines.svm.io.${sha256Base36('machines.svm.io/v1alpha1/instances//x')}`);
  });

  it('case 6: deterministic, and different inputs give different names', () => {
    expect(hashedName(INSTANCES, '', LONG_NAME)).toBe(hashedName(INSTANCES, '', LONG_NAME));
    const names = new Set([
      hashedName(INSTANCES, '', LONG_NAME),
      hashedName(INSTANCES, '', `${LONG_NAME}b`),
      hashedName(INSTANCES, 'ns', LONG_NAME),
      hashedName({ ...INSTANCES, version: 'v1' }, '', LONG_NAME),
      hashedName(CONFIGMAPS, 'a', 'bc'),
      hashedName(CONFIGMAPS, 'ab', 'c'),
    ]);
    expect(names.size).toBe(6);
  });

  it('case 7: even the hashed name taken → InternalError', () => {
    const err = thrown(() => cachedObjectName(INSTANCES, '', 'web-server-1', () => true));
    expect(err.code).toBe('InternalError');
    expect(err.message).toContain('taken');
  });

  it('case 8: a schema too long for <schema>.<h> → the bare hash, the same one hashedName gives', () => {
    const gvr = { group: `${'g'.repeat(60)}.${'h'.repeat(60)}.${'i'.repeat(60)}.example.com`, version: 'v1', resource: 'r'.repeat(50) };
    const name = cachedObjectName(gvr, '', 'x'.repeat(20));
    expect(name).toMatch(/^[0-9a-z]+$/);
    expect(name).toBe(hashedName(gvr, '', 'x'.repeat(20)));
  });
});

describe('isReadableName', () => {
  const readable = (gvr: GroupVersionResource, namespace: string, object: string): string => (namespace === '' ? `${schemaOf(gvr)}.${object}` : `${schemaOf(gvr)}.${namespace}.${object}`);
  const cases = numbered([
    { name: 'cluster-scoped: the readable form', candidate: 'v1alpha1.instances.machines.svm.io.web-server-1', gvr: INSTANCES, namespace: '', object: 'web-server-1', want: true },
    { name: 'namespaced core: the readable form names the core group', candidate: 'v1.configmaps.core.team-a.settings', gvr: CONFIGMAPS, namespace: 'team-a', object: 'settings', want: true },
    { name: 'a namespaced original under its cluster-scoped form', candidate: 'v1.configmaps.core.settings', gvr: CONFIGMAPS, namespace: 'team-a', object: 'settings', want: false },
    { name: 'the hashed name', candidate: hashedName(INSTANCES, '', 'web-server-1'), gvr: INSTANCES, namespace: '', object: 'web-server-1', want: false },
    { name: 'one character more at the end', candidate: 'v1.configmaps.core.team-a.settingsx', gvr: CONFIGMAPS, namespace: 'team-a', object: 'settings', want: false },
    { name: 'one character less at the end', candidate: 'v1.configmaps.core.team-a.setting', gvr: CONFIGMAPS, namespace: 'team-a', object: 'settings', want: false },
    { name: 'another version', candidate: 'v2.configmaps.core.team-a.settings', gvr: CONFIGMAPS, namespace: 'team-a', object: 'settings', want: false },
    { name: 'another group', candidate: 'v1alpha1.instances.machines.svm.org.web-server-1', gvr: INSTANCES, namespace: '', object: 'web-server-1', want: false },
    { name: 'an empty group written empty instead of core', candidate: 'v1.configmaps..team-a.settings', gvr: CONFIGMAPS, namespace: 'team-a', object: 'settings', want: false },
    { name: 'the parts moved across a dot: same text, other original', candidate: 'v1.a.b.x', gvr: { group: '', version: 'v1', resource: 'a' }, namespace: '', object: 'b.x', want: false },
    { name: 'a name with dots, read to the end', candidate: 'v1.a.core.b.x', gvr: { group: '', version: 'v1', resource: 'a' }, namespace: '', object: 'b.x', want: true },
    { name: 'an invalid readable form is still the readable form', candidate: 'v1.configmaps.core.team-a.Settings', gvr: CONFIGMAPS, namespace: 'team-a', object: 'Settings', want: true },
    { name: 'empty candidate', candidate: '', gvr: CONFIGMAPS, namespace: '', object: 'x', want: false },
  ]);

  it.each(cases)('case $n: $name', ({ candidate, gvr, namespace, object, want }) => {
    expect(isReadableName(candidate, gvr, namespace, object)).toBe(want);
    // The same answer as comparing with the readable form built in full.
    expect(candidate === readable(gvr, namespace, object)).toBe(want);
  });
});
