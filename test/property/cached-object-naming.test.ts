// Properties of CachedObject names and labels (src/cachedobjects/README.md):
//   case 1: for any valid group/version/resource/namespace/name the name is a DNS-1123
//           subdomain of at most 253 characters, and the same input always gets the same name;
//   case 2: every cachegate label value is a valid label value, equal to the original value when
//           that is valid and a short hash otherwise, with the full value in the annotation;
//   case 3: cachedObjectOrigin recovers shard, cluster, GVR, namespace and name from the wrapped copy;
//   case 4: a taken readable name moves to the hashed form, distinct from the readable one.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GroupVersionResource } from '../../src/apimachinery/gvr.js';
import { isDNS1123Subdomain, isValidLabelValue } from '../../src/apimachinery/validation.js';
import { cachedObjectLabels, CACHED_OBJECT_LABEL_KEYS } from '../../src/cachedobjects/cached-object-labels.js';
import { cachedObjectName } from '../../src/cachedobjects/cached-object-name.js';
import { cachedObjectOrigin } from '../../src/cachedobjects/cached-object-origin.js';
import { wrapCachedObject } from '../../src/cachedobjects/wrap-cached-object.js';
import { dnsLabel, dnsSubdomain, fcOptions } from './arbitraries.js';

interface Original {
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  readonly name: string;
}

// Kubernetes serves a resource as the CRD `<resource>.<group>`, itself a name of at most 253.
const gvr: fc.Arbitrary<GroupVersionResource> = fc
  .record({ group: fc.oneof(fc.constant(''), dnsSubdomain(200)), version: dnsLabel, resource: dnsLabel })
  .filter((g) => `${g.resource}.${g.group}`.length <= 253 && g.version.length <= 20);

// Object names: mostly DNS subdomains, sometimes path-segment names such as RBAC's `system:foo`.
const objectName = fc.oneof(
  { weight: 4, arbitrary: dnsSubdomain() },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 80 }).filter((s) => !/[/%]/.test(s) && s !== '.' && s !== '..') },
);

const original: fc.Arbitrary<Original> = fc.record({
  gvr,
  namespace: fc.oneof(fc.constant(''), dnsLabel),
  name: objectName,
});

function wrap(o: Original, shard: string, cluster: string) {
  const name = cachedObjectName(o.gvr, o.namespace, o.name);
  const meta = { name: o.name, ...(o.namespace === '' ? {} : { namespace: o.namespace }), labels: { app: 'x' } };
  return wrapCachedObject({ original: { apiVersion: 'v1', kind: 'Thing', metadata: meta }, gvr: o.gvr, shard, cluster, identityHash: '', name });
}

describe('CachedObject naming properties', () => {
  it('case 1: the name is a DNS-1123 subdomain of at most 253 characters, and stable', () => {
    fc.assert(
      fc.property(original, (o) => {
        const name = cachedObjectName(o.gvr, o.namespace, o.name);
        expect(isDNS1123Subdomain(name)).toEqual([]);
        expect(name.length).toBeLessThanOrEqual(253);
        expect(cachedObjectName(o.gvr, o.namespace, o.name)).toBe(name);
      }),
      fcOptions(),
    );
  });

  it('case 2: every cachegate label value is valid, hashed only when the original value is not', () => {
    fc.assert(
      fc.property(original, (o) => {
        const metadata = { name: o.name, ...(o.namespace === '' ? {} : { namespace: o.namespace }) };
        const { labels, annotations } = cachedObjectLabels({ apiVersion: 'v1', kind: 'Thing', metadata }, o.gvr);
        for (const key of CACHED_OBJECT_LABEL_KEYS) {
          const value = labels[key] ?? '<missing>';
          expect(isValidLabelValue(value)).toEqual([]);
          const full = annotations[key];
          if (full === undefined) continue;
          expect(isValidLabelValue(full)).not.toEqual([]);
          expect(value).toMatch(/^h-[0-9a-z]{1,20}$/);
        }
      }),
      fcOptions(),
    );
  });

  it('case 3: cachedObjectOrigin recovers the original from the copy', () => {
    fc.assert(
      fc.property(original, dnsLabel, dnsLabel, (o, shard, cluster) => {
        const origin = cachedObjectOrigin(wrap(o, shard, cluster));
        expect(origin).toMatchObject({ shard, cluster, gvr: o.gvr, namespace: o.namespace, name: o.name });
      }),
      fcOptions(),
    );
  });

  it('case 4: a taken readable name moves to the hashed form', () => {
    fc.assert(
      fc.property(original, (o) => {
        const schema = `${o.gvr.version}.${o.gvr.resource}.${o.gvr.group === '' ? 'core' : o.gvr.group}`;
        const readable = o.namespace === '' ? `${schema}.${o.name}` : `${schema}.${o.namespace}.${o.name}`;
        const moved = cachedObjectName(o.gvr, o.namespace, o.name, (candidate) => candidate === readable);
        expect(moved).not.toBe(readable);
        expect(isDNS1123Subdomain(moved)).toEqual([]);
      }),
      fcOptions(),
    );
  });
});

describe('CachedObject naming at the length limit', () => {
  // `<plural>.<group>` may be 253 characters (the CRD name limit), so `<version>.<schema>.<hash>`
  // can exceed 253: the hash alone is then the name.
  it('case 5: a resource whose <plural>.<group> is 253 characters still gets a name', () => {
    const group = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(50)].join('.');
    const resource = 'x'.repeat(253 - group.length - 1);
    const name = cachedObjectName({ group, version: 'v1', resource }, '', 'n');
    expect(isDNS1123Subdomain(name)).toEqual([]);
    expect(name).not.toBe(cachedObjectName({ group, version: 'v1', resource }, '', 'm'));
  });
});
