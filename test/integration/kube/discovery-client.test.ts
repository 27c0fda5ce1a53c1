// REST mapping from the embedded source's discovery documents, per logical cluster, with a short
// cache: a CRD that goes away is noticed once the TTL has passed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscoveryClient } from '../../../src/kube/discovery-client.js';
import { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { embeddedSource } from '../../../src/kube/source-connection.js';
import type { SourceConnection } from '../../../src/kube/source-connection.js';
import { DEADLINE_MS, eventually } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { CONFIGMAPS, CRDS, WIDGETS, defineWidgets, freePort, rejection } from './kube-test-kit.js';

describe('DiscoveryClient', () => {
  let app: TestApp;
  let source: SourceConnection;
  let client: DynamicClient;

  beforeAll(async () => {
    app = await startTestApp({ embedded: { enabled: true, clusters: ['root', 'other'] } });
    source = embeddedSource(app.url);
    client = new DynamicClient(source);
  });
  afterAll(async () => app?.stop());

  it('maps configmaps as namespaced without a status subresource', async () => {
    const discovery = new DiscoveryClient(source);
    expect(await discovery.resolve('root', CONFIGMAPS)).toEqual({ kind: 'ConfigMap', namespaced: true, statusSubresource: false });
    expect(await discovery.resolve('root', { ...CONFIGMAPS, resource: 'nothings' })).toBeUndefined();
    expect(await discovery.resolve('root', { group: 'unknown.example.com', version: 'v1', resource: 'things' })).toBeUndefined();
  });

  it('maps a CRD per logical cluster, and forgets it after the TTL once the CRD is deleted', async () => {
    let clock = 1_000;
    const discovery = new DiscoveryClient(source, { ttlMs: 2000, now: () => clock });
    expect(await discovery.resolve('root', WIDGETS)).toBeUndefined();
    await defineWidgets(client, 'root');
    // The answer "unknown" is cached too, until the TTL passes.
    expect(await discovery.resolve('root', WIDGETS)).toBeUndefined();
    clock += 2001;
    expect(await discovery.resolve('root', WIDGETS)).toEqual({ kind: 'Widget', namespaced: false, statusSubresource: true });
    expect(await discovery.resolve('other', WIDGETS)).toBeUndefined();

    await client.delete('root', CRDS, undefined, `${WIDGETS.resource}.${WIDGETS.group}`);
    expect(await discovery.resolve('root', WIDGETS)).toBeDefined();
    clock += 2001;
    expect(await discovery.resolve('root', WIDGETS)).toBeUndefined();
  });

  it('notices a deleted CRD within the default TTL, and at once after invalidate', async () => {
    await defineWidgets(client, 'other');
    const discovery = new DiscoveryClient(source);
    expect(await discovery.resolve('other', WIDGETS)).toMatchObject({ kind: 'Widget' });
    await client.delete('other', CRDS, undefined, `${WIDGETS.resource}.${WIDGETS.group}`);
    await eventually(async () => expect(await discovery.resolve('other', WIDGETS)).toBeUndefined(), DEADLINE_MS, 100);

    await defineWidgets(client, 'other');
    discovery.invalidate('other');
    expect(await discovery.resolve('other', WIDGETS)).toMatchObject({ kind: 'Widget' });
  });

  it('throws ServiceUnavailable for an unreachable source and does not cache the failure', async () => {
    const discovery = new DiscoveryClient(embeddedSource(`http://127.0.0.1:${await freePort()}`));
    const err = await rejection(discovery.resolve('root', CONFIGMAPS));
    expect(err.code).toBe('ServiceUnavailable');
    expect((await rejection(discovery.resolve('root', CONFIGMAPS))).code).toBe('ServiceUnavailable');
  });
});
