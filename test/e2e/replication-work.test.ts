// How much work replication does, seen through /metrics: a copy write the controller makes itself
// comes back through its cache watch, and must not cost a second reconcile of the same key.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, crd, eventually, request } from '../helpers/kube-http.js';
import { CCRS, cachedObjects, ccr } from '../helpers/replication.js';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';

const GVR = { group: 'work.example.com', version: 'v1', resource: 'gadgets' };
const N = 60;

/** replicationReconciles sums cachegate_controller_reconcile_total over the replication controllers. */
async function replicationReconciles(app: TestApp): Promise<number> {
  const text = await (await fetch(`${app.url}/metrics`)).text();
  return text.split('\n')
    .filter((line) => line.startsWith('cachegate_controller_reconcile_total{') && line.includes('controller="replication:'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

describe('replication work', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it(`case 1: replicating ${N} objects reconciles each about once, not again for its own copy write`, async () => {
    const root = app.clusterUrl('root');
    expect((await request('POST', `${root}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Gadget', versions: [GVR.version] }))).status).toBe(201);
    for (let i = 0; i < N; i++) expect((await request('POST', `${root}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`, { metadata: { name: `g-${i}` } })).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('gadgets', GVR))).status).toBe(201);
    await eventually(async () => expect(await cachedObjects(app.url, '', 'embedded', 'root')).toHaveLength(N));
    // Settled: the count stops moving.
    let settled = -1;
    await eventually(async () => {
      const now = await replicationReconciles(app);
      const before = settled;
      settled = now;
      expect(now).toBe(before);
    }, DEADLINE_MS, 500);
    expect(settled).toBeGreaterThanOrEqual(N);
    // Each key once, plus a little slack for a source event racing its own reconcile; twice as
    // many would mean every own copy write was reconciled again.
    expect(settled).toBeLessThan(N * 1.25);
  });
});
