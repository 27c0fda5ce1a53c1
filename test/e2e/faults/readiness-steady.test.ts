// Readiness says whether the process can serve, not how far one ClusterCachedResource has come:
// after the first sync, a CCR whose source list keeps failing (so its replication never syncs)
// leaves /readyz at 200. (The CCR's phase is not checked here: in this rig the remote cachegate
// replicates its own embedded source too, so its controller also writes that status.)

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, cachedObjects, ccr } from '../../helpers/replication.js';
import { readyz } from '../../helpers/test-app.js';
import { startRig } from './fault-rig.js';
import type { Rig } from './fault-rig.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const OTHERS = { group: 'faults.example.com', version: 'v1', resource: 'others' };

describe('readiness while a CCR is syncing', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await startRig();
    await eventually(async () => expect((await readyz(rig.local)).status).toBe(200), DEADLINE_MS, 50);
  });
  afterAll(async () => rig?.stop());

  it('case 1: a CCR that cannot finish its first sync does not take the process out of service', async () => {
    // Every list of the new resource through the proxy fails, so its replication never syncs.
    rig.proxy.resetCounts();
    rig.proxy.setRule((line) => (line.includes('/apis/faults.example.com/v1/others?') && !line.includes('watch=') ? { kind: 'status', code: 500 } : undefined));
    const base = rig.remote.clusterUrl('root');
    expect((await request('POST', `${base}${CRDS}`, crd({ group: OTHERS.group, plural: OTHERS.resource, kind: 'Other', versions: [OTHERS.version] }))).status).toBe(201);
    expect((await request('POST', `${base}/apis/faults.example.com/v1/others`, { metadata: { name: 'o1' } })).status).toBe(201);
    expect((await request('POST', `${base}${CCRS}`, ccr('others', OTHERS))).status).toBe(201);
    // The local child has started once its lists are being refused by the proxy.
    await eventually(() => expect(rig.proxy.counts.faulted).toBeGreaterThan(0), DEADLINE_MS, 50);
    for (let i = 0; i < 20; i++) {
      const ready = await readyz(rig.local);
      expect(ready.status, ready.text).toBe(200);
    }
    // Its replication has not synced: the object of the new resource has no copy in the cache.
    expect(await cachedObjects(rig.local.url, '?labelSelector=cache.kcp.io/object-schema%3Dv1.others.faults.example.com')).toEqual([]);
  });
});

describe('readiness at start', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await startRig({ proxyDown: true });
  });
  afterAll(async () => rig?.stop());

  it('case 2: waits for the CCRs found by the first list, then passes once their replication has synced', async () => {
    rig.proxy.setRule((line) => (line.includes('/apis/faults.example.com/v1/things?') && !line.includes('watch=') ? { kind: 'status', code: 500 } : undefined));
    await rig.proxy.up();
    await eventually(async () => {
      const ready = await readyz(rig.local);
      expect(ready.status).toBe(503);
      expect(ready.text).toContain('[-]source:remote failed: first sync not finished');
    }, DEADLINE_MS, 50);
    rig.proxy.setRule(undefined);
    await eventually(async () => expect((await readyz(rig.local)).status).toBe(200), DEADLINE_MS, 50);
  });
});
