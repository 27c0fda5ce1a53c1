// Sources from kubeconfig files: a `kube` source is one plain cluster (here the embedded
// server's /clusters/root, which behaves as one), so its paths have no cluster prefix and all
// its objects belong to its configured logical cluster.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { clusterOf, connectSource, embeddedSource, resourcePath } from '../../../src/kube/source-connection.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { thrown } from '../../helpers/thrown.js';
import { CONFIGMAPS, WIDGETS, configMap, rejection } from './kube-test-kit.js';

/** kubeconfigYaml has two contexts, one per logical cluster of the embedded server. */
function kubeconfigYaml(url: string): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: root
  cluster: { server: "${url}/clusters/root", insecure-skip-tls-verify: true }
- name: other
  cluster: { server: "${url}/clusters/other", insecure-skip-tls-verify: true }
users:
- name: nobody
  user: {}
contexts:
- name: root-ctx
  context: { cluster: root, user: nobody }
- name: other-ctx
  context: { cluster: other, user: nobody }
current-context: root-ctx
`;
}

describe('source connections', () => {
  let app: TestApp;
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    app = await startTestApp({ embedded: { enabled: true, clusters: ['root', 'other'] } });
    dir = await mkdtemp(join(tmpdir(), 'cachegate-kube-'));
    kubeconfig = join(dir, 'kubeconfig.yaml');
    await writeFile(kubeconfig, kubeconfigYaml(app.url));
    const embedded = new DynamicClient(embeddedSource(app.url));
    await embedded.create('root', CONFIGMAPS, 'default', configMap('where', { cluster: 'root' }));
    await embedded.create('other', CONFIGMAPS, 'default', configMap('where', { cluster: 'other' }));
  });
  afterAll(async () => {
    await app?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads a kube source through its kubeconfig, under its configured logical cluster', async () => {
    const source = connectSource({ name: 'plain', kind: 'kube', kubeconfig, cluster: 'prod' });
    expect(source).toMatchObject({ name: 'plain', kind: 'kube', defaultCluster: 'prod' });
    const client = new DynamicClient(source);
    const obj = await client.get('prod', CONFIGMAPS, 'default', 'where');
    expect(obj['data']).toEqual({ cluster: 'root' });
    expect(clusterOf(source, obj)).toBe('prod');
    const listed = await client.list(undefined, CONFIGMAPS);
    expect(listed.items.map((o) => o.metadata.name)).toContain('where');
    expect((await rejection(client.get('elsewhere', CONFIGMAPS, 'default', 'where'))).code).toBe('NotFound');
  });

  it('selects the configured context, and names a kube source\'s cluster after the source by default', async () => {
    const source = connectSource({ name: 'second', kind: 'kube', kubeconfig, context: 'other-ctx' });
    expect(source.defaultCluster).toBe('second');
    const obj = await new DynamicClient(source).get('second', CONFIGMAPS, 'default', 'where');
    expect(obj['data']).toEqual({ cluster: 'other' });
  });

  it('refuses a missing kubeconfig file or an unknown context with Invalid naming source and path', () => {
    const missing = thrown(() => connectSource({ name: 'ghost', kind: 'kube', kubeconfig: join(dir, 'nope.yaml') }));
    expect(missing.code).toBe('Invalid');
    expect(missing.message).toContain('source ghost');
    expect(missing.message).toContain(join(dir, 'nope.yaml'));
    const badContext = thrown(() => connectSource({ name: 'ctx', kind: 'kcp', kubeconfig, context: 'no-such-context' }));
    expect(badContext.code).toBe('Invalid');
    expect(badContext.message).toContain('no-such-context');
  });

  it('refuses a kubeconfig file that is not a kubeconfig', async () => {
    const garbage = join(dir, 'garbage.yaml');
    await writeFile(garbage, 'this: [is not, a kubeconfig\n');
    const err = thrown(() => connectSource({ name: 'junk', kind: 'kcp', kubeconfig: garbage }));
    expect(err.code).toBe('Invalid');
    expect(err.message).toContain(garbage);
  });

  it('builds kcp paths with a cluster prefix and kube paths without one', () => {
    const kcp = embeddedSource(app.url);
    const kube = connectSource({ name: 'plain', kind: 'kube', kubeconfig, cluster: 'prod' });
    expect(resourcePath(kcp, 'root', CONFIGMAPS, 'default', 'a b')).toBe('/clusters/root/api/v1/namespaces/default/configmaps/a%20b');
    expect(resourcePath(kcp, undefined, WIDGETS)).toBe('/clusters/*/apis/example.com/v1/widgets');
    expect(resourcePath(kcp, 'root', WIDGETS, undefined, 'w', 'status')).toBe('/clusters/root/apis/example.com/v1/widgets/w/status');
    expect(resourcePath(kube, 'prod', CONFIGMAPS, 'default')).toBe('/api/v1/namespaces/default/configmaps');
    expect(resourcePath(kube, undefined, WIDGETS, undefined, 'w')).toBe('/apis/example.com/v1/widgets/w');
    expect(clusterOf(kcp, { metadata: { annotations: { 'kcp.io/cluster': 'other' } } })).toBe('other');
  });
});
