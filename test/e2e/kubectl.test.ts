// kubectl, unmodified, against the embedded source: the basic acceptance flow.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/kube-http.js';
import { kubectlFor } from '../helpers/kubectl.js';
import type { Kubectl } from '../helpers/kubectl.js';

const CRD_YAML = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: instances.machines.svm.io
spec:
  group: machines.svm.io
  scope: Cluster
  names: {plural: instances, singular: instance, kind: Instance, listKind: InstanceList}
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
    subresources: {status: {}}
`;

const PRINTED_CRD_YAML = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.printing.test
spec:
  group: printing.test
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
    additionalPrinterColumns:
    - {name: Size, type: string, jsonPath: .spec.size}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status'}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    - {name: Zone, type: string, jsonPath: .spec.zone, priority: 1}
`;

const WIDGET = `
apiVersion: printing.test/v1
kind: Widget
metadata: {name: w1, namespace: default}
spec: {size: large, replicas: 3, zone: eu-1}
`;

const CCR_YAML = `
apiVersion: cache.kcp.io/v1alpha1
kind: ClusterCachedResource
metadata: {name: instances}
spec: {group: machines.svm.io, version: v1alpha1, resource: instances}
`;

function instance(name: string, labels: Record<string, string>, size: string): string {
  return `---
apiVersion: machines.svm.io/v1alpha1
kind: Instance
metadata: {name: ${name}, labels: ${JSON.stringify(labels)}}
spec: {size: ${size}}
`;
}

const INSTANCES = [
  instance('web-server-1', { env: 'prod', tier: 'web' }, 'large'),
  instance('web-server-2', { env: 'staging', tier: 'web' }, 'large'),
  instance('db-1', { env: 'prod', tier: 'db' }, 'small'),
].join('');

/** names reads the NAME column of kubectl's table output. */
function names(table: string): string[] {
  return table.trim().split('\n').slice(1).map((line) => line.split(/\s+/)[0] ?? '').sort();
}

describe('kubectl against the embedded source', () => {
  let app: TestApp;
  let kubectl: Kubectl;

  beforeAll(async () => {
    app = await startTestApp();
    kubectl = kubectlFor(app.clusterUrl('root'));
    expect(await kubectl.ok(['apply', '-f', '-'], CRD_YAML)).toContain('customresourcedefinition.apiextensions.k8s.io/instances.machines.svm.io created');
    expect(await kubectl.ok(['apply', '-f', '-'], INSTANCES)).toContain('instance.machines.svm.io/db-1 created');
  });
  afterAll(async () => app?.stop());

  it('case 1: plain table output lists the applied objects with NAME and AGE', async () => {
    const out = await kubectl.ok(['get', 'instances']);
    expect(out.split('\n')[0]).toMatch(/^NAME\s+AGE$/);
    expect(names(out)).toEqual(['db-1', 'web-server-1', 'web-server-2']);
  });

  it.each([
    ['case 2: equality', 'env=prod', ['db-1', 'web-server-1']],
    ['case 3: double equals', 'tier==web', ['web-server-1', 'web-server-2']],
    ['case 4: inequality', 'env!=prod', ['web-server-2']],
    ['case 5: in', 'env in (staging,dev)', ['web-server-2']],
    ['case 6: notin and AND', 'env notin (staging),tier=web', ['web-server-1']],
    ['case 7: exists', 'tier', ['db-1', 'web-server-1', 'web-server-2']],
    ['case 8: does not exist', '!tier', []],
  ])('%s label selector', async (_name, selector, expected) => {
    const result = await kubectl.run(['get', 'instances', '-l', selector]);
    expect(result.code).toBe(0);
    expect(expected.length === 0 ? result.stderr : '').toContain(expected.length === 0 ? 'No resources found' : '');
    if (expected.length > 0) expect(names(result.stdout)).toEqual(expected);
  });

  it('case 9: -o yaml shows the object with server-set metadata and the cluster annotation', async () => {
    const out = await kubectl.ok(['get', 'instance', 'web-server-1', '-o', 'yaml']);
    expect(out).toContain('apiVersion: machines.svm.io/v1alpha1');
    expect(out).toContain('kind: Instance');
    expect(out).toMatch(/uid: [0-9a-f-]{36}/);
    expect(out).toMatch(/resourceVersion: "\d+"/);
    expect(out).toContain('kcp.io/cluster: root');
    expect(out).toContain('size: large');
  });

  it('case 10: re-applying unchanged objects reports unchanged; a changed one is configured', async () => {
    expect(await kubectl.ok(['apply', '-f', '-'], INSTANCES)).toContain('instance.machines.svm.io/db-1 unchanged');
    const changed = INSTANCES.replace('small', 'medium');
    const out = await kubectl.ok(['apply', '-f', '-'], changed);
    expect(out).toContain('instance.machines.svm.io/db-1 configured');
    expect(await kubectl.ok(['get', 'instance', 'db-1', '-o', 'jsonpath={.spec.size}'])).toBe('medium');
  });

  it('case 11: patch --type merge and --type json change the object', async () => {
    await kubectl.ok(['patch', 'instance', 'web-server-2', '--type', 'merge', '-p', '{"spec":{"size":"tiny"},"metadata":{"labels":{"patched":"yes"}}}']);
    expect(await kubectl.ok(['get', 'instance', 'web-server-2', '-o', 'jsonpath={.spec.size}/{.metadata.labels.patched}'])).toBe('tiny/yes');
    await kubectl.ok(['patch', 'instance', 'web-server-2', '--type', 'json', '-p', '[{"op":"replace","path":"/spec/size","value":"huge"},{"op":"remove","path":"/metadata/labels/patched"}]']);
    expect(await kubectl.ok(['get', 'instance', 'web-server-2', '-o', 'jsonpath={.spec.size}/{.metadata.labels.patched}'])).toBe('huge/');
  });

  it('case 12: get -w --output-watch-events shows ADDED, MODIFIED and DELETED', async () => {
    const watcher = kubectl.spawn(['get', 'instances', '-w', '--output-watch-events']);
    let out = '';
    watcher.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      await eventually(() => expect(out).toMatch(/ADDED\s+web-server-1/));
      await kubectl.ok(['apply', '-f', '-'], instance('watched-1', { env: 'dev' }, 'small'));
      await kubectl.ok(['patch', 'instance', 'watched-1', '--type', 'merge', '-p', '{"spec":{"size":"big"}}']);
      await kubectl.ok(['delete', 'instance', 'watched-1']);
      await eventually(() => {
        expect(out).toMatch(/ADDED\s+watched-1/);
        expect(out).toMatch(/MODIFIED\s+watched-1/);
        expect(out).toMatch(/DELETED\s+watched-1/);
      });
    } finally {
      watcher.kill();
    }
  });

  it('case 13: delete removes the object and a later get is NotFound', async () => {
    await kubectl.ok(['apply', '-f', '-'], instance('doomed', {}, 'small'));
    expect(await kubectl.ok(['delete', 'instance', 'doomed'])).toContain('instance.machines.svm.io "doomed" deleted');
    const result = await kubectl.run(['get', 'instance', 'doomed']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Error from server (NotFound): instances.machines.svm.io "doomed" not found');
  });

  it('case 14: create namespace and create configmap -n in it', async () => {
    expect(await kubectl.ok(['create', 'namespace', 'team-a'])).toContain('namespace/team-a created');
    expect(await kubectl.ok(['create', 'configmap', 'settings', '-n', 'team-a', '--from-literal=mode=fast', '--from-literal=level=3'])).toContain('configmap/settings created');
    const out = await kubectl.ok(['get', 'configmaps', '-n', 'team-a']);
    expect(out.split('\n')[0]).toMatch(/^NAME\s+DATA\s+AGE$/);
    expect(out).toMatch(/settings\s+2\s+/);
    expect(await kubectl.ok(['get', 'configmap', 'settings', '-n', 'team-a', '-o', 'jsonpath={.data.mode}'])).toBe('fast');
    expect(await kubectl.ok(['get', 'namespaces'])).toMatch(/team-a\s+Active/);
  });

  it('case 15: a configmap in a missing namespace is refused with NotFound', async () => {
    const result = await kubectl.run(['create', 'configmap', 'x', '-n', 'nowhere', '--from-literal=a=b']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('namespaces "nowhere" not found');
  });

  it('case 17: a CRD\'s printer columns show in get, the priority-1 one only with -o wide', async () => {
    await kubectl.ok(['apply', '-f', '-'], PRINTED_CRD_YAML);
    await eventually(async () => expect((await kubectl.run(['get', 'widgets'])).stderr).toContain('No resources found'));
    await kubectl.ok(['apply', '-f', '-'], WIDGET);
    const out = (await kubectl.ok(['get', 'widgets'])).trim().split('\n');
    expect(out[0]).toMatch(/^NAME\s+SIZE\s+REPLICAS\s+READY\s+AGE$/);
    // No Ready condition: the server sends a null cell, which kubectl prints blank.
    expect(out[1]).toMatch(/^w1\s+large\s+3\s+\d+s$/);
    const wide = (await kubectl.ok(['get', 'widgets', '-o', 'wide'])).trim().split('\n');
    expect(wide[0]).toMatch(/^NAME\s+SIZE\s+REPLICAS\s+READY\s+AGE\s+ZONE$/);
    expect(wide[1]).toMatch(/\s+eu-1$/);
  });

  it('case 18: clustercachedresources show their resource, phase and counts', async () => {
    await kubectl.ok(['apply', '-f', '-'], CCR_YAML);
    await eventually(async () => {
      const out = (await kubectl.ok(['get', 'clustercachedresources'])).trim().split('\n');
      expect(out[0]).toMatch(/^NAME\s+RESOURCE\s+PHASE\s+LOCAL\s+CACHE\s+AGE$/);
      expect(out.find((line) => line.startsWith('instances '))).toMatch(/^instances\s+instances\s+Ready\s+\d+\s+\d+\s+\S+$/);
    });
  });

  it('case 19: describe shows a CCR\'s Events, and get events lists them', async () => {
    // case 18 created the CCR `instances`, which became Ready.
    await eventually(async () => {
      const described = await kubectl.ok(['describe', 'clustercachedresource', 'instances']);
      expect(described).toMatch(/^Events:/m);
      expect(described).toMatch(/Normal\s+Ready\s+.*every selected object is replicated/);
    });
    expect(await kubectl.ok(['get', 'events', '-n', 'default'])).toMatch(/Normal\s+Ready\s+clustercachedresource\/instances\s+/);
  });

  it('case 20: copies carry kcp\'s original-resource-UID annotation, read through the cache API', async () => {
    // case 18's CCR replicates the instances; their copies name each original's uid under kcp's key.
    const uids = (await kubectl.ok(['get', 'instances', '-o', 'jsonpath={.items[*].metadata.uid}'])).split(' ').sort();
    const cache = kubectlFor(`${app.url}/services/cache/shards/*/clusters/*`);
    await eventually(async () => {
      const copied = await cache.ok(['get', 'cachedobjects', '-o', String.raw`jsonpath={.items[*].metadata.annotations.cache\.kcp\.io/original-resource-UID}`]);
      expect(copied.split(' ').filter((uid) => uids.includes(uid)).sort()).toEqual(uids);
    });
  });

  it('case 16: api-resources lists what the embedded source and the cache API serve', async () => {
    const source = await kubectl.ok(['api-resources', '--no-headers']);
    expect(source).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
    expect(source).toMatch(/^clustercachedresources\s/m);
    // The cache API serves no core resource, but its /api names v1 as kube-apiserver's does.
    const cache = await kubectlFor(`${app.url}/services/cache/shards/*/clusters/*`).ok(['api-resources', '--no-headers']);
    expect(cache.trim().split('\n').map((line) => line.split(/\s+/)[0]).sort()).toEqual(['cachedobjects', 'selfsubjectaccessreviews', 'selfsubjectreviews', 'selfsubjectrulesreviews']);
    expect(source).toMatch(/^selfsubjectaccessreviews\s+authorization\.k8s\.io\/v1\s+false\s+SelfSubjectAccessReview$/m);
  });

  it('case 21: auth can-i answers yes and whoami names the anonymous user when auth is off; a review that names no attributes is 422, a malformed one or cluster 400', async () => {
    expect((await kubectl.ok(['auth', 'can-i', 'create', 'configmaps'])).trim()).toBe('yes');
    expect((await kubectl.ok(['auth', 'can-i', '--list'])).length).toBeGreaterThan(0);
    const whoami = JSON.parse(await kubectl.ok(['auth', 'whoami', '-o', 'json']));
    expect(whoami.status.userInfo).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
    const reviews = `${app.clusterUrl('root')}/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`;
    const empty = await fetch(reviews, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"spec":{}}' });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { causes: [{ field: 'spec.resourceAttributes' }] } });
    const numeric = await fetch(reviews, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"spec":{"resourceAttributes":{"verb":5}}}' });
    expect(numeric.status).toBe(400);
    expect(((await numeric.json()) as { message: string }).message).toBe('json: cannot unmarshal number into Go struct field ResourceAttributes.spec.resourceAttributes.verb of type string');
    const badCluster = await fetch(`${app.url}/clusters/Not_Valid/apis/authentication.k8s.io/v1/selfsubjectreviews`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(badCluster.status).toBe(400);
    const get = await fetch(reviews);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});
