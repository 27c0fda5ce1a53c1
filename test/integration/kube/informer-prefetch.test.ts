// The informers a restarted process starts before its state is loaded: a source's
// ClusterCachedResources, and the resource of each one that was Ready. They are the shared
// informers the controllers acquire later, handed over one by one, the rest released at once.
// The source is a real cachegate whose own controllers make its CCRs Ready (or not).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { prefetchInformers } from '../../../src/app/informer-prefetch.js';
import { CCR_GVR } from '../../../src/app/source-runtime.js';
import { DynamicClient } from '../../../src/kube/dynamic-client.js';
import { SharedInformers } from '../../../src/kube/shared-informers.js';
import { embeddedSource } from '../../../src/kube/source-connection.js';
import type { SourceConnection } from '../../../src/kube/source-connection.js';
import { eventually } from '../../helpers/kube-http.js';
import { ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { CONFIGMAPS, SILENT, configMap } from './kube-test-kit.js';

interface CcrStatus {
  readonly phase?: string;
  readonly conditions?: readonly { readonly type: string; readonly status: string }[];
}

const SECRETS = { group: '', version: 'v1', resource: 'secrets' };
const MISSING = { group: 'nowhere.example.com', version: 'v1', resource: 'ghosts' };

describe('prefetchInformers', () => {
  let app: TestApp;
  let source: SourceConnection;
  let client: DynamicClient;

  beforeAll(async () => {
    app = await startTestApp();
    source = embeddedSource(app.url);
    client = new DynamicClient(source);
    await client.create('root', CCR_GVR, undefined, ccr('configmaps', CONFIGMAPS) as KubeObject);
    await client.create('root', CCR_GVR, undefined, ccr('ghosts', MISSING) as KubeObject);
    await client.create('root', CCR_GVR, undefined, ccr('secrets', SECRETS) as KubeObject);
    // The source's own controller reports the first Ready and the second not (no such resource).
    await eventually(async () => {
      const statuses = new Map((await client.list('root', CCR_GVR)).items.map((item) => [item.metadata.name, item['status'] as CcrStatus | undefined]));
      expect(statuses.get('configmaps')?.phase).toBe('Ready');
      expect(statuses.get('secrets')?.phase).toBe('Ready');
      expect(statuses.get('ghosts')?.conditions?.find((c) => c.type === 'ResourceValid')?.status).toBe('False');
    });
  });
  afterAll(async () => app?.stop());

  const running = (informers: SharedInformers): string[] => informers.all().map((r) => `${r.cluster ?? '*'}|${r.gvr.resource}`).sort();

  it('case 1: starts the CCR informer and, once it has listed, the informer of each Ready CCR\'s resource only', async () => {
    const informers = new SharedInformers({ log: SILENT });
    const prefetched = prefetchInformers(informers, source, CCR_GVR);
    await eventually(() => expect(running(informers)).toEqual(['*|clustercachedresources', 'root|configmaps', 'root|secrets']));
    const configmaps = informers.all().find((r) => r.gvr.resource === 'configmaps');
    await eventually(() => expect(configmaps?.hasSynced()).toBe(true));
    prefetched.releaseAll();
    expect(running(informers)).toEqual([]);
    informers.stopAll();
  });

  it('case 2: a handed-over informer keeps running, listed, for the holder that took it', async () => {
    const informers = new SharedInformers({ log: SILENT });
    const prefetched = prefetchInformers(informers, source, CCR_GVR);
    await eventually(() => expect(running(informers)).toContain('root|configmaps'));
    const holder = informers.acquire(source, CONFIGMAPS, 'root');
    prefetched.handOver('root', CONFIGMAPS);
    expect(running(informers)).toEqual(['*|clustercachedresources', 'root|configmaps', 'root|secrets']);
    prefetched.releaseAll();
    expect(running(informers)).toEqual(['root|configmaps']);
    await client.create('root', CONFIGMAPS, 'default', configMap('after-hand-over'));
    await eventually(() => expect(holder.reflector.get('root', 'default', 'after-hand-over')).toBeDefined());
    holder.release();
    expect(running(informers)).toEqual([]);
    informers.stopAll();
  });

  it('case 3: an informer whose CCR is deleted is released, and with nothing left to hand over the CCR informer goes too', async () => {
    const informers = new SharedInformers({ log: SILENT });
    const prefetched = prefetchInformers(informers, source, CCR_GVR);
    await eventually(() => expect(running(informers)).toContain('root|secrets'));
    const holder = informers.acquire(source, CONFIGMAPS, 'root');
    await client.delete('root', CCR_GVR, undefined, 'secrets');
    await eventually(() => expect(running(informers)).toEqual(['*|clustercachedresources', 'root|configmaps']));
    prefetched.handOver('root', CONFIGMAPS);
    await eventually(() => expect(running(informers)).toEqual(['root|configmaps']));
    holder.release();
    informers.stopAll();
  });
});
