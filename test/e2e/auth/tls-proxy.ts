// A TLS-terminating reverse proxy for tests. kubectl (client-go) sends credentials such as
// --token only over TLS, so kubectl reaches cachegate through this proxy, as it would through an
// ingress in a real deployment. The certificate is a fresh self-signed one made by openssl.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** TlsProxy is a running proxy: its https base URL and how to stop it. */
export interface TlsProxy {
  readonly url: string;
  /** certificate is the proxy's self-signed certificate (PEM), for a client that verifies it. */
  readonly certificate: string;
  close(): Promise<void>;
}

/** startTlsProxy forwards https://127.0.0.1:<port>/... to target (an http base URL). */
export async function startTlsProxy(target: string): Promise<TlsProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'tls-proxy-'));
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ]);
  const tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  rmSync(dir, { recursive: true, force: true });
  const upstream = new URL(target);
  const server = createServer(tls, (req, res) => {
    const forwarded = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    certificate: tls.cert.toString(),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
