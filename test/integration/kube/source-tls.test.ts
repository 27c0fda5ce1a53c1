// A source reached over TLS with a bearer token, as a real cluster is: the kubeconfig's
// certificate authority verifies the server and its token is sent, on requests and on watches
// alike. The source is a cachegate with auth on, behind a TLS-terminating proxy.

import { Buffer } from 'node:buffer';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { Reflector } from '../../../src/kube/reflector.js';
import { connectSource } from '../../../src/kube/source-connection.js';
import { startTlsProxy } from '../../e2e/auth/tls-proxy.js';
import type { TlsProxy } from '../../e2e/auth/tls-proxy.js';
import { eventually } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { CONFIGMAPS, SILENT, configMap, rejection } from './kube-test-kit.js';

const TOKEN = 'tls-source-token-0123456789abcdef';

interface KubeconfigOptions {
  readonly certificateAuthority?: string;
  readonly token: string;
}

describe('a source over TLS with a bearer token', () => {
  let app: TestApp;
  let proxy: TlsProxy;
  let dir: string;

  beforeAll(async () => {
    app = await startTestApp({ auth: { tokens: [{ token: TOKEN, user: 'replicator' }] } });
    proxy = await startTlsProxy(app.url);
    dir = await mkdtemp(join(tmpdir(), 'cachegate-tls-source-'));
  });
  afterAll(async () => {
    await proxy?.close();
    await app?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** clientFor writes a kubeconfig for the proxy's /clusters/root and connects a kube source through it. */
  async function clientFor(name: string, opts: KubeconfigOptions): Promise<DynamicClient> {
    const ca = opts.certificateAuthority === undefined ? '' : `, certificate-authority-data: ${Buffer.from(opts.certificateAuthority).toString('base64')}`;
    const path = join(dir, `${name}.kubeconfig`);
    await writeFile(path, `apiVersion: v1
kind: Config
clusters:
- name: tls
  cluster: { server: "${proxy.url}/clusters/root"${ca} }
users:
- name: replicator
  user: { token: ${opts.token} }
contexts:
- name: tls
  context: { cluster: tls, user: replicator }
current-context: tls
`);
    return new DynamicClient(connectSource({ name, kind: 'kube', kubeconfig: path, cluster: 'root' }));
  }

  it('case 1: requests verify the server with the kubeconfig\'s CA and carry the token', async () => {
    const client = await clientFor('secure', { certificateAuthority: proxy.certificate, token: TOKEN });
    await client.create('root', CONFIGMAPS, 'default', configMap('over-tls', { via: 'proxy' }));
    expect((await client.get('root', CONFIGMAPS, 'default', 'over-tls'))['data']).toEqual({ via: 'proxy' });
  });

  it('case 2: a reflector lists and watches through the same credentials', async () => {
    const client = await clientFor('watched', { certificateAuthority: proxy.certificate, token: TOKEN });
    const reflector = new Reflector({ source: client.source, client, gvr: CONFIGMAPS, cluster: 'root', log: SILENT });
    reflector.start();
    try {
      await eventually(() => expect(reflector.hasSynced()).toBe(true), 10_000);
      await client.create('root', CONFIGMAPS, 'default', configMap('seen-by-watch'));
      await eventually(() => expect(reflector.get('root', 'default', 'seen-by-watch')).toBeDefined(), 10_000);
      expect(reflector.lastError()).toBeUndefined();
    } finally {
      reflector.stop();
    }
  });

  it('case 3: without the CA the server is not trusted: the source is unreachable, naming the certificate', async () => {
    const client = await clientFor('untrusted', { token: TOKEN });
    const err = await rejection(client.get('root', CONFIGMAPS, 'default', 'over-tls'));
    expect(err.code).toBe('ServiceUnavailable');
    expect(err.message).toMatch(/^source untrusted is unreachable: .*certificate/i);
  });

  it('case 4: a wrong token is refused by the source: Unauthorized', async () => {
    const client = await clientFor('wrong-token', { certificateAuthority: proxy.certificate, token: 'wrong-token-0123456789abcdef0123' });
    expect((await rejection(client.get('root', CONFIGMAPS, 'default', 'over-tls'))).code).toBe('Unauthorized');
  });
});
