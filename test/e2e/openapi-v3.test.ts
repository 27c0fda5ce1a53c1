// OpenAPI v3 with the real app and the real kubectl: `kubectl explain` for built-in kinds and for
// custom resources (from their CRD's schema), the index and document formats kube-apiserver uses,
// and `kubectl apply` still working with the documents present.
//   case 1: kubectl explain configmaps and configmap.data print the descriptions
//   case 2: after a CRD with a structural schema is applied, explain <kind>.spec and <kind>.spec.<field> print its descriptions
//   case 3: kubectl explain clustercachedresources.spec prints the spec's fields
//   case 4: a CRD whose schema only preserves unknown fields still explains, without error
//   case 5: kubectl apply (client-side, default validation) creates and then configures custom resources and a configmap
//   case 6: the index names one document per served group-version, keys without a leading slash, URLs under the mount prefix with a hash
//   case 7: a document answers with the hash as ETag, 304 for If-None-Match, immutable caching with ?hash, 301 for a stale hash
//   case 8: a group-version document tags each kind and its List with x-kubernetes-group-version-kind
//   case 9: a group-version nobody serves, and a malformed document path, are 404 Status
//   case 10: a client that accepts only protobuf gets 406 Status; /openapi/v2 is unchanged
//   case 11: the cache API mount serves a v3 document for CachedObjects, spec.raw preserving unknown fields

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';
import { eventually, request } from '../helpers/kube-http.js';
import { kubectlFor } from '../helpers/kubectl.js';
import type { Kubectl } from '../helpers/kubectl.js';

const GADGET_CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.explain.test}
spec:
  group: explain.test
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: Gadget is a thing that explains itself.
        properties:
          spec:
            type: object
            description: The desired state of the gadget.
            required: [size]
            properties:
              size: {type: string, enum: [small, large], description: How big the gadget is.}
              replicas: {type: integer, description: How many gadgets to run.}
          status:
            type: object
            properties:
              ready: {type: boolean, description: Whether the gadget works.}
`;

const BLOB_CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: blobs.explain.test}
spec:
  group: explain.test
  scope: Cluster
  names: {plural: blobs, singular: blob, kind: Blob}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;

function objects(size: string, value: string): string {
  return `
apiVersion: explain.test/v1
kind: Gadget
metadata: {name: g1, namespace: default}
spec: {size: ${size}, replicas: 2, extra: kept}
---
apiVersion: explain.test/v1
kind: Blob
metadata: {name: b1}
spec: {anything: [1, 2]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c1, namespace: default}
data: {key: ${value}}
`;
}

describe('OpenAPI v3 and kubectl explain', () => {
  let app: TestApp;
  let kubectl: Kubectl;
  let base: string;

  beforeAll(async () => {
    app = await startTestApp();
    base = app.clusterUrl('root');
    kubectl = kubectlFor(base);
    await kubectl.ok(['apply', '-f', '-'], GADGET_CRD + '---' + BLOB_CRD);
  });
  afterAll(async () => app?.stop());

  /** index reads /openapi/v3 of a mount. */
  async function index(mount: string): Promise<Record<string, { serverRelativeURL: string }>> {
    const res = await request('GET', `${mount}/openapi/v3`);
    expect(res.status).toBe(200);
    return res.body.paths as Record<string, { serverRelativeURL: string }>;
  }

  it('case 1: kubectl explain configmaps and configmap.data print the descriptions', async () => {
    const out = await kubectl.ok(['explain', 'configmaps']);
    expect(out).toMatch(/KIND:\s+ConfigMap/);
    expect(out).toContain('ConfigMap holds configuration data for pods to consume.');
    expect(out).toMatch(/data\s+<map\[string\]string>/);
    expect(out).toMatch(/metadata\s+<ObjectMeta>/);
    const data = await kubectl.ok(['explain', 'configmap.data']);
    expect(data).toMatch(/FIELD: data <map\[string\]string>/);
    expect(data).toContain('Data contains the configuration data.');
    const meta = await kubectl.ok(['explain', 'cm.metadata.labels']);
    expect(meta).toContain('Map of string keys and values');
  });

  it('case 2: after a CRD with a structural schema is applied, explain <kind>.spec and <kind>.spec.<field> print its descriptions', async () => {
    const spec = await eventually(() => kubectl.ok(['explain', 'gadgets.spec']));
    expect(spec).toMatch(/GROUP:\s+explain\.test/);
    expect(spec).toContain('The desired state of the gadget.');
    expect(spec).toMatch(/size\s+<string> -required-/);
    expect(spec).toContain('How many gadgets to run.');
    const size = await kubectl.ok(['explain', 'gadget.spec.size']);
    expect(size).toMatch(/FIELD: size <string>/);
    expect(size).toContain('How big the gadget is.');
    expect(await kubectl.ok(['explain', 'gadget'])).toContain('Gadget is a thing that explains itself.');
  });

  it('case 3: kubectl explain clustercachedresources.spec prints the spec\'s fields', async () => {
    const out = await kubectl.ok(['explain', 'clustercachedresources.spec']);
    expect(out).toMatch(/KIND:\s+ClusterCachedResource/);
    expect(out).toMatch(/resource\s+<string> -required-/);
    expect(out).toContain('Plural resource name, e.g. instances.');
    expect(out).toContain('API group of the resource; empty for the core group.');
  });

  it('case 4: a CRD whose schema only preserves unknown fields still explains, without error', async () => {
    const result = await eventually(async () => {
      const run = await kubectl.run(['explain', 'blobs']);
      expect(run.code, run.stderr).toBe(0);
      return run;
    });
    expect(result.stdout).toMatch(/KIND:\s+Blob/);
    expect(result.stdout).toMatch(/metadata\s+<ObjectMeta>/);
  });

  it('case 5: kubectl apply (client-side, default validation) creates and then configures custom resources and a configmap', async () => {
    await eventually(() => kubectl.ok(['get', 'gadgets,blobs', '-A']));
    const created = await kubectl.ok(['apply', '-f', '-'], objects('small', 'one'));
    expect(created).toContain('gadget.explain.test/g1 created');
    expect(created).toContain('blob.explain.test/b1 created');
    expect(created).toContain('configmap/c1 created');
    const changed = await kubectl.ok(['apply', '-f', '-'], objects('large', 'two'));
    expect(changed).toContain('gadget.explain.test/g1 configured');
    expect(changed).toContain('blob.explain.test/b1 unchanged');
    expect(changed).toContain('configmap/c1 configured');
    expect(await kubectl.ok(['get', 'gadget', 'g1', '-n', 'default', '-o', 'jsonpath={.spec.size}/{.spec.extra}'])).toBe('large/kept');
    expect(await kubectl.ok(['get', 'configmap', 'c1', '-n', 'default', '-o', 'jsonpath={.data.key}'])).toBe('two');
  });

  it('case 6: the index names one document per served group-version, keys without a leading slash, URLs under the mount prefix with a hash', async () => {
    const paths = await eventually(async () => {
      const found = await index(base);
      expect(Object.keys(found)).toContain('apis/explain.test/v1');
      return found;
    });
    expect(Object.keys(paths).sort()).toEqual(['api/v1', 'apis/apiextensions.k8s.io/v1', 'apis/cache.kcp.io/v1alpha1', 'apis/explain.test/v1']);
    for (const [key, { serverRelativeURL }] of Object.entries(paths)) {
      expect(serverRelativeURL).toMatch(new RegExp(`^/clusters/root/openapi/v3/${key.replace(/\./g, '\\.')}\\?hash=[0-9A-F]{128}$`));
    }
    const other = await index(app.clusterUrl('other'));
    expect(Object.keys(other)).not.toContain('apis/explain.test/v1');
    expect(other['api/v1']?.serverRelativeURL).toMatch(/^\/clusters\/other\/openapi\/v3\/api\/v1\?hash=/);
  });

  it('case 7: a document answers with the hash as ETag, 304 for If-None-Match, immutable caching with ?hash, 301 for a stale hash', async () => {
    const url = (await index(base))['api/v1']?.serverRelativeURL ?? '';
    const hash = new URL(url, app.url).searchParams.get('hash') ?? '';
    const res = await request('GET', `${app.url}${url}`, undefined, 'application/json', { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('etag')).toBe(`"${hash}"`);
    expect(res.headers.get('cache-control')).toBe('public, immutable');
    expect(res.body.openapi).toBe('3.0.0');
    const again = await fetch(`${base}/openapi/v3/api/v1`, { headers: { 'if-none-match': `"${hash}"` } });
    expect(again.status).toBe(304);
    const stale = await fetch(`${base}/openapi/v3/api/v1?hash=0123`, { redirect: 'manual' });
    expect(stale.status).toBe(301);
    expect(stale.headers.get('location')).toBe(url);
  });

  it('case 8: a group-version document tags each kind and its List with x-kubernetes-group-version-kind', async () => {
    const url = await eventually(async () => {
      const found = (await index(base))['apis/explain.test/v1']?.serverRelativeURL;
      expect(found).toBeDefined();
      return found ?? '';
    });
    const res = await request('GET', `${app.url}${url}`);
    expect(res.status).toBe(200);
    const schemas = res.body.components.schemas as Record<string, Record<string, unknown>>;
    expect(schemas['test.explain.v1.Gadget']?.['x-kubernetes-group-version-kind']).toEqual([{ group: 'explain.test', version: 'v1', kind: 'Gadget' }]);
    expect(schemas['test.explain.v1.GadgetList']?.['x-kubernetes-group-version-kind']).toEqual([{ group: 'explain.test', version: 'v1', kind: 'GadgetList' }]);
    expect(schemas['test.explain.v1.Blob']?.['x-kubernetes-group-version-kind']).toEqual([{ group: 'explain.test', version: 'v1', kind: 'Blob' }]);
    expect(res.body.paths['/apis/explain.test/v1/namespaces/{namespace}/gadgets'].get['x-kubernetes-group-version-kind'])
      .toEqual({ group: 'explain.test', version: 'v1', kind: 'Gadget' });
  });

  it('case 9: a group-version nobody serves, and a malformed document path, are 404 Status', async () => {
    for (const path of ['/openapi/v3/apis/nobody.test/v1', '/openapi/v3/api/v2', '/openapi/v3/apis/explain.test']) {
      const res = await request('GET', `${base}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
    }
    const badCluster = await request('GET', `${app.url}/clusters/Not_A_Name/openapi/v3`);
    expect(badCluster.status).toBe(400);
    expect(badCluster.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
  });

  it('case 10: a client that accepts only protobuf gets 406 Status; /openapi/v2 is unchanged', async () => {
    const proto = await request('GET', `${base}/openapi/v3/api/v1`, undefined, 'application/json', {
      accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf',
    });
    expect(proto.status).toBe(406);
    expect(proto.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
    const v2 = await request('GET', `${base}/openapi/v2`);
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({ swagger: '2.0', paths: {}, definitions: {} });
  });

  it('case 11: the cache API mount serves a v3 document for CachedObjects, spec.raw preserving unknown fields', async () => {
    const mount = `${app.url}/services/cache/shards/shard-1/clusters/root`;
    const paths = await index(mount);
    expect(Object.keys(paths)).toEqual(['apis/cache.kcp.io/v1alpha1']);
    const url = paths['apis/cache.kcp.io/v1alpha1']?.serverRelativeURL ?? '';
    expect(url).toMatch(/^\/services\/cache\/shards\/shard-1\/clusters\/root\/openapi\/v3\/apis\/cache\.kcp\.io\/v1alpha1\?hash=[0-9A-F]{128}$/);
    const res = await request('GET', `${app.url}${url}`);
    expect(res.status).toBe(200);
    const cached = res.body.components.schemas['io.kcp.cache.v1alpha1.CachedObject'];
    expect(cached['x-kubernetes-group-version-kind']).toEqual([{ group: 'cache.kcp.io', version: 'v1alpha1', kind: 'CachedObject' }]);
    expect(cached.properties.spec.properties.raw).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    const explained = await kubectlFor(mount).ok(['explain', 'cachedobjects.spec.raw']);
    expect(explained).toContain('The original object, as it was in its logical cluster.');
  });
});
