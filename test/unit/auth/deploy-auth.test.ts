// The auth examples in deploy/ stay true to the code: the example config and its tokens file load,
// the Kubernetes Secret holds a valid tokens file, and the Deployment mounts it where the
// ConfigMap's (commented) auth line looks for it.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../../src/config/load-config.js';

const read = (path: string): string => readFileSync(new URL(`../../../deploy/${path}`, import.meta.url), 'utf8');

describe('deploy/ auth examples', () => {
  it('case 1: the auth example config loads with its tokens file', () => {
    const config = loadConfig({
      argv: ['--config', 'c.yaml'], env: {},
      readFile: (path) => (path === 'c.yaml' ? read('config/cachegate.auth.example.yaml') : read(path.replace(/^deploy\//, ''))),
    });
    expect(config.auth?.tokens.map((t) => t.user)).toEqual(['admin', 'team-a', 'dashboard']);
    expect(config.auth?.rateLimit).toEqual({ requestsPerSecond: 50, burst: 100 });
  });

  it('case 2: the Secret holds a valid tokens file, mounted where the ConfigMap\'s auth line reads it', () => {
    const secret = parse(read('kubernetes/tokens-secret.yaml'));
    const tokensFile = /tokensFile: ([^,}]+)/.exec(parse(read('kubernetes/configmap.yaml')).data['cachegate.yaml'])?.[1] ?? '';
    const deployment = parse(read('kubernetes/deployment.yaml'));
    const mount = deployment.spec.template.spec.containers[0].volumeMounts.find((m: { name: string }) => m.name === 'tokens');
    const volume = deployment.spec.template.spec.volumes.find((v: { name: string }) => v.name === 'tokens');
    expect(volume.secret.secretName).toBe(secret.metadata.name);
    expect(tokensFile).toBe(`${mount.mountPath}/tokens.yaml`);
    const config = loadConfig({
      argv: ['--config', 'c.yaml'], env: {},
      readFile: (path) => (path === 'c.yaml' ? `auth: {tokensFile: ${tokensFile}}` : secret.stringData['tokens.yaml']),
    });
    expect(config.auth?.tokens.length).toBeGreaterThan(0);
  });
});
