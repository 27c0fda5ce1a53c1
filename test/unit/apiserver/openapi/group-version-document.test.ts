// The OpenAPI v3 document of a group-version, built from the served resources.
//   case 1: a group-version nobody serves has no document
//   case 2: every built-in kind of core/v1 has a schema and a List schema tagged with its group-version-kind
//   case 3: every top-level field of every built-in kind has a description (what kubectl explain prints)
//   case 4: a CRD version's schema is published with apiVersion, kind and metadata added, under kube's component name
//   case 5: a CRD version without a schema gets an object that keeps every field
//   case 6: paths hold each resource's list GET with its kind (kubectl explain reads the kind there), and no write operation
//   case 7: every $ref points at a component of the same document
//   case 8: the document does not depend on anything but the resources (same input, same JSON)
//   case 9: the cache API's CachedObject keeps spec.raw as an object with unknown fields preserved
//   case 10: servedGroupVersions and groupVersionKey name each group-version once, without a leading slash

import { describe, expect, it } from 'vitest';
import { BUILTIN_RESOURCES, CONFIGMAPS } from '../../../../src/apiserver/builtin-resources.js';
import { CACHED_OBJECTS_INFO } from '../../../../src/apiserver/cache-api/cache-api-source.js';
import { readCrd, resourcesOfCrd } from '../../../../src/apiserver/embedded/crd-resources.js';
import type { KubeObject } from '../../../../src/apimachinery/object-meta.js';
import { customResourceSchema } from '../../../../src/apiserver/openapi/custom-resource-schema.js';
import {
  friendlyName, groupVersionDocument, groupVersionKey, GVK_EXTENSION, servedGroupVersions,
} from '../../../../src/apiserver/openapi/group-version-document.js';
import type { ResourceInfo } from '../../../../src/apiserver/resource-info.js';

type Schema = Record<string, unknown>;

const GADGETS_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.explain.test' },
  spec: {
    group: 'explain.test', scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1', served: true, storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object', description: 'Gadget explains itself.',
            properties: { spec: { type: 'object', description: 'The desired gadget.', properties: { size: { type: 'string', description: 'How big.' } } } },
          },
        },
      },
      { name: 'v2', served: true, storage: false },
    ],
  },
} as unknown as KubeObject;

function schemasOf(doc: Record<string, unknown> | undefined): Record<string, Schema> {
  return ((doc?.['components'] as Schema)['schemas'] as Record<string, Schema>);
}

function byKind(doc: Record<string, unknown> | undefined, kind: string): Schema | undefined {
  return Object.values(schemasOf(doc)).find((s) => (s[GVK_EXTENSION] as { kind: string }[] | undefined)?.some((g) => g.kind === kind));
}

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => (key === '$ref' && typeof v === 'string' ? [v] : refsIn(v)));
}

const gadgets = resourcesOfCrd(readCrd(GADGETS_CRD));

describe('groupVersionDocument', () => {
  it('case 1: a group-version nobody serves has no document', () => {
    expect(groupVersionDocument(BUILTIN_RESOURCES, 'nobody.test', 'v1', 'v1.32.0')).toBeUndefined();
    expect(groupVersionDocument(BUILTIN_RESOURCES, '', 'v2', 'v1.32.0')).toBeUndefined();
  });

  it('case 2: every built-in kind of core/v1 has a schema and a List schema tagged with its group-version-kind', () => {
    const doc = groupVersionDocument(BUILTIN_RESOURCES, '', 'v1', 'v1.32.0');
    expect(doc?.['openapi']).toBe('3.0.0');
    for (const kind of ['Namespace', 'ConfigMap', 'Secret', 'Event']) {
      expect(byKind(doc, kind)?.[GVK_EXTENSION]).toEqual([{ group: '', version: 'v1', kind }]);
      expect(byKind(doc, `${kind}List`)?.[GVK_EXTENSION]).toEqual([{ group: '', version: 'v1', kind: `${kind}List` }]);
    }
    expect(schemasOf(doc)['io.k8s.api.core.v1.ConfigMap']).toBeDefined();
  });

  it('case 3: every top-level field of every built-in kind has a description (what kubectl explain prints)', () => {
    for (const info of [...BUILTIN_RESOURCES, CACHED_OBJECTS_INFO]) {
      const doc = groupVersionDocument([info], info.group, info.version, 'v1.32.0');
      const schema = byKind(doc, info.kind);
      expect(schema?.['description'], info.kind).toEqual(expect.any(String));
      for (const [field, fieldSchema] of Object.entries(schema?.['properties'] as Record<string, Schema>)) {
        expect(fieldSchema['description'], `${info.kind}.${field}`).toEqual(expect.stringMatching(/\S/));
      }
    }
    const meta = schemasOf(groupVersionDocument([CONFIGMAPS], '', 'v1', 'v1.32.0'))['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'];
    const metaFields = meta?.['properties'] as Record<string, Schema>;
    for (const field of ['name', 'namespace', 'labels', 'annotations', 'uid', 'resourceVersion', 'creationTimestamp', 'finalizers']) {
      expect(metaFields[field]?.['description'], field).toEqual(expect.stringMatching(/\S/));
    }
  });

  it('case 4: a CRD version\'s schema is published with apiVersion, kind and metadata added, under kube\'s component name', () => {
    const doc = groupVersionDocument([...BUILTIN_RESOURCES, ...gadgets], 'explain.test', 'v1', 'v1.32.0');
    const schema = schemasOf(doc)['test.explain.v1.Gadget'];
    expect(schema?.[GVK_EXTENSION]).toEqual([{ group: 'explain.test', version: 'v1', kind: 'Gadget' }]);
    expect(schema?.['description']).toBe('Gadget explains itself.');
    const properties = schema?.['properties'] as Record<string, Schema>;
    expect(Object.keys(properties).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(properties['spec']).toEqual({ type: 'object', description: 'The desired gadget.', properties: { size: { type: 'string', description: 'How big.' } } });
    expect(properties['metadata']?.['allOf']).toEqual([{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
    expect(schemasOf(doc)['test.explain.v1.GadgetList']?.[GVK_EXTENSION]).toEqual([{ group: 'explain.test', version: 'v1', kind: 'GadgetList' }]);
    expect(friendlyName({ group: 'machines.svm.io', version: 'v1alpha1', kind: 'Instance' })).toBe('io.svm.machines.v1alpha1.Instance');
  });

  it('case 5: a CRD version without a schema gets an object that keeps every field', () => {
    const doc = groupVersionDocument(gadgets, 'explain.test', 'v2', 'v1.32.0');
    const schema = schemasOf(doc)['test.explain.v2.Gadget'];
    expect(schema?.['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(Object.keys(schema?.['properties'] as Schema).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    // A schema that is not an object at all is read as an empty one.
    expect(customResourceSchema('not a schema')).toMatchObject({ type: 'object', properties: { kind: { type: 'string' } } });
    expect(customResourceSchema({ type: 'object', properties: [1, 2] })['properties']).toHaveProperty('metadata');
  });

  it('case 6: paths hold each resource\'s list GET with its kind (kubectl explain reads the kind there), and no write operation', () => {
    const core = groupVersionDocument(BUILTIN_RESOURCES, '', 'v1', 'v1.32.0');
    const paths = core?.['paths'] as Record<string, Record<string, Schema>>;
    expect(paths['/api/v1/namespaces']?.['get']?.[GVK_EXTENSION]).toEqual({ group: '', version: 'v1', kind: 'Namespace' });
    expect(paths['/api/v1/namespaces/{namespace}/configmaps']?.['get']?.[GVK_EXTENSION]).toEqual({ group: '', version: 'v1', kind: 'ConfigMap' });
    expect(paths['/api/v1/configmaps']?.['get']?.[GVK_EXTENSION]).toEqual({ group: '', version: 'v1', kind: 'ConfigMap' });
    const crds = groupVersionDocument(gadgets, 'explain.test', 'v1', 'v1.32.0');
    expect(Object.keys(crds?.['paths'] as Schema).sort()).toEqual(['/apis/explain.test/v1/gadgets', '/apis/explain.test/v1/namespaces/{namespace}/gadgets']);
    for (const path of Object.values(paths)) expect(Object.keys(path)).toEqual(['get']);
  });

  it('case 7: every $ref points at a component of the same document', () => {
    const resources: ResourceInfo[] = [...BUILTIN_RESOURCES, ...gadgets, CACHED_OBJECTS_INFO];
    for (const { group, version } of servedGroupVersions(resources)) {
      const doc = groupVersionDocument(resources, group, version, 'v1.32.0');
      for (const ref of refsIn(doc)) {
        expect(ref).toMatch(/^#\/components\/schemas\//);
        expect(schemasOf(doc)[ref.slice('#/components/schemas/'.length)], `${group}/${version} ${ref}`).toBeDefined();
      }
    }
  });

  it('case 8: the document does not depend on anything but the resources (same input, same JSON)', () => {
    const first = JSON.stringify(groupVersionDocument([...BUILTIN_RESOURCES, ...gadgets], 'explain.test', 'v1', 'v1.32.0'));
    const second = JSON.stringify(groupVersionDocument([...gadgets, ...BUILTIN_RESOURCES], 'explain.test', 'v1', 'v1.32.0'));
    expect(second).toBe(first);
  });

  it('case 9: the cache API\'s CachedObject keeps spec.raw as an object with unknown fields preserved', () => {
    const doc = groupVersionDocument([CACHED_OBJECTS_INFO], 'cache.kcp.io', 'v1alpha1', 'v1.32.0');
    const spec = (byKind(doc, 'CachedObject')?.['properties'] as Record<string, Schema>)['spec'];
    expect((spec?.['properties'] as Record<string, Schema>)['raw']).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('case 10: servedGroupVersions and groupVersionKey name each group-version once, without a leading slash', () => {
    const keys = servedGroupVersions([...BUILTIN_RESOURCES, ...gadgets]).map((gv) => groupVersionKey(gv.group, gv.version));
    expect(keys).toEqual(['api/v1', 'apis/apiextensions.k8s.io/v1', 'apis/cache.kcp.io/v1alpha1', 'apis/explain.test/v1', 'apis/explain.test/v2']);
  });
});
