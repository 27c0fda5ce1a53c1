// A kubeconfig for a plain-http server reached anonymously (a second cachegate, a fault proxy),
// written to a private temp file for a `kcp` source's `kubeconfig` setting.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** kubeconfigFor writes a kubeconfig whose one context reaches server (e.g. http://127.0.0.1:8080) and returns its path. */
export function kubeconfigFor(server: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cachegate-kubeconfig-')), 'config');
  writeFileSync(path, [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: remote, cluster: {server: "${server}"}}]`,
    'users: [{name: anonymous, user: {}}]',
    'contexts: [{name: remote, context: {cluster: remote, user: anonymous}}]',
    'current-context: remote',
  ].join('\n'));
  return path;
}
