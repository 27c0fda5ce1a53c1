// Readiness says whether the process can serve, not how far one ClusterCachedResource has come:
// after the first sync, a CCR whose source list keeps failing (so its replication never syncs)
// leaves /readyz at 200, while the CCR's own phase says it is not Ready.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { readyz } from '../../helpers/test-app.js';
import { startRig } from './fault-rig.js';
import type { Rig } from './fault-rig.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const OTHERS = { group: 'faults.example.com', version: 'v1', resource: 'others' };
const DEADLINE_MS = 30_000;

interface ReportedCcr {
  metadata: { name: string; annotations: Record<string, string> };
  status?: { phase?: string; conditions?: Array<{ type: string; status: string }> };
}

describe('readiness while a CCR is syncing', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await startRig();
    await eventually(async () => expect((await readyz(rig.local)).status).toBe(200), DEADLINE_MS, 50);
  }, DEADLINE_MS * 2);
  afterAll(async () => rig?.stop());

  it('case 1: a CCR that cannot finish its first sync does not take the process out of service', async () => {
    // Every list of the new resource through the proxy fails, so its replication never syncs.
    rig.proxy.setRule((line) => (line.includes('/apis/faults.example.com/v1/others?') && !line.includes('watch=') ? { kind: 'status', code: 500 } : undefined));
    const base = rig.remote.clusterUrl('root');
    expect((await request('POST', `${base}${CRDS}`, crd({ group: OTHERS.group, plural: OTHERS.resource, kind: 'Other', versions: [OTHERS.version] }))).status).toBe(201);
    expect((await request('POST', `${base}${CCRS}`, ccr('others', OTHERS))).status).toBe(201);
    const others = async (): Promise<ReportedCcr | undefined> => {
      const items = (await request('GET', `${rig.local.url}/v1/clustercachedresources`)).body.items as ReportedCcr[];
      return items.find((i) => i.metadata.name === 'others');
    };
    await eventually(async () => {
      const reported = await others();
      expect(reported?.status?.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'ReplicationStarted', status: 'True' })]));
    }, DEADLINE_MS, 50);
    for (let i = 0; i < 20; i++) {
      const ready = await readyz(rig.local);
      expect(ready.status, ready.text).toBe(200);
    }
    expect((await others())?.status?.phase).toBe('Initializing');
  }, DEADLINE_MS * 2);
});
