// Metric series live as long as what they describe: a ClusterCachedResource's replication
// controller, its work queue and its informer each own labelled series, and removing the CCR
// removes them, so create/delete cycles leave /metrics as it was.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, cachedObjects, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

/** CYCLES is how many CCRs are created and deleted after the warm-up one. */
const CYCLES = 10;
/**
 * SIZE_SLACK_BYTES: what /metrics may grow by over the cycles with no series left behind: values
 * gain digits, and a shared series may appear for the first time (a route answering its first 404
 * to a status write racing the delete, the root controller's first retry), ~1 KiB each. One
 * left-over CCR's series take ~3 KiB, so CYCLES of them would be far above this.
 */
const SIZE_SLACK_BYTES = 8192;

const PLURAL = 'gadgets';

describe('metric series of a ClusterCachedResource', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  const scrape = async (): Promise<string> => (await fetch(`${app.url}/metrics`)).text();

  /** cycle replicates two objects of a resource of its own in a cluster of its own, then deletes the CCR and waits until it is gone. */
  const cycle = async (name: string): Promise<void> => {
    const cluster = app.clusterUrl(name);
    const group = `${name}.example.com`;
    expect((await request('POST', `${cluster}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd({ group, plural: PLURAL, kind: 'Gadget' }))).status).toBe(201);
    await eventually(async () => expect((await request('GET', `${cluster}/apis/${group}/v1alpha1/${PLURAL}`)).status).toBe(200));
    for (const object of ['one', 'two']) expect((await request('POST', `${cluster}/apis/${group}/v1alpha1/${PLURAL}`, { metadata: { name: object } })).status).toBe(201);
    expect((await request('POST', `${cluster}${CCRS}`, ccr(PLURAL, { group, version: 'v1alpha1', resource: PLURAL }))).status).toBe(201);
    await eventually(async () => expect(await cachedObjects(app.url, '', 'embedded', name)).toHaveLength(2));
    // The series exist while the CCR replicates, so their absence later means they were removed.
    await eventually(async () => expect(seriesNaming(await scrape(), name).length).toBeGreaterThan(0));
    expect((await request('DELETE', `${cluster}${CCRS}/${PLURAL}`)).status).toBe(200);
    await eventually(async () => expect((await request('GET', `${cluster}${CCRS}/${PLURAL}`)).status).toBe(404));
  };

  it('case 1: after CCRs are created and deleted, no series names them and /metrics is back to its size', async () => {
    // The warm-up cycle makes the series every cycle shares (HTTP routes and statuses, the root controller's queue).
    await cycle('warm-up');
    const before = await scrape();
    const names = Array.from({ length: CYCLES }, (_, i) => `gone-${i}`);
    for (const name of names) await cycle(name);
    const after = await scrape();
    for (const name of [...names, 'warm-up']) expect(seriesNaming(after, name)).toEqual([]);
    expect(after.length).toBeLessThanOrEqual(before.length + SIZE_SLACK_BYTES);
  });
});

/** seriesNaming lists the sample lines of a scrape that mention name in a label value. */
function seriesNaming(scrape: string, name: string): string[] {
  return scrape.split('\n').filter((line) => !line.startsWith('#') && line.includes(name));
}
