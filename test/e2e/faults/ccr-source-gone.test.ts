// A CCR whose source disappears (the remote behind the proxy goes down):
//   case 1: while it is gone, the copies already replicated are kept and served (a source outage
//           is not a deletion), while the informers retry (cachegate_informer_restarts_total).
//   case 2: once it has been gone past the grace (5 s), /v1/clustercachedresources reports the CCR
//           with SourceReachable=False (the error, since when) and no local count it cannot know.
//   case 3: readiness names the source lost after its first sync.
//   case 4: changes made in the source while it was unreachable are replicated once it is back,
//           and cachegate's report of the CCR counts exactly what the cache holds again.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, eventually, request } from '../../helpers/kube-http.js';
import { cachedObjects } from '../../helpers/replication.js';
import { expectCacheEqualsSource, startRig } from './fault-rig.js';
import { readyz } from '../../helpers/test-app.js';
import type { Rig } from './fault-rig.js';

interface ReportedCcr {
  readonly metadata: { readonly name: string; readonly annotations: Record<string, string> };
  readonly status?: {
    readonly phase?: string;
    readonly resourceCounts?: { local?: number; cache?: number };
    readonly conditions?: ReadonlyArray<{ type: string; status: string; reason?: string; message?: string }>;
  };
}

/** reported is the local cachegate's report of the remote's CCR `things`. */
async function reported(rig: Rig): Promise<ReportedCcr | undefined> {
  const res = await request('GET', `${rig.local.url}/v1/clustercachedresources`);
  expect(res.status).toBe(200);
  return (res.body.items as ReportedCcr[]).find((c) => c.metadata.name === 'things' && c.metadata.annotations['kcp.io/shard'] === 'remote');
}

/** restarts sums cachegate_informer_restarts_total of the remote source's informers. */
async function restarts(rig: Rig): Promise<number> {
  const text = await (await fetch(`${rig.local.url}/metrics`)).text();
  return text.split('\n').filter((l) => l.startsWith('cachegate_informer_restarts_total{') && l.includes('source="remote"'))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

describe('a CCR whose source disappears', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await startRig();
    for (let i = 0; i < 5; i++) expect((await request('POST', rig.things, { metadata: { name: `kept-${i}` }, spec: { i } })).status).toBe(201);
    await expectCacheEqualsSource(rig);
    await eventually(async () => expect((await readyz(rig.local)).status).toBe(200), DEADLINE_MS, 100);
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('case 1: while the source is gone its copies stay served, while the informers retry', async () => {
    const before = await restarts(rig);
    await rig.proxy.down();
    await eventually(async () => expect(await restarts(rig)).toBeGreaterThan(before + 2), DEADLINE_MS, 200);
    // Through a few more failed retries, nothing is purged because the source cannot be reached.
    const failing = await restarts(rig);
    await eventually(async () => expect(await restarts(rig)).toBeGreaterThan(failing + 2), DEADLINE_MS, 200);
    expect(await cachedObjects(rig.local.url, '', 'remote', 'root')).toHaveLength(5);
    const object = await request('GET', `${rig.local.url}/v1/objects/faults.example.com/v1/things/kept-0?cluster=root&shard=remote`);
    expect(object.status).toBe(200);
  });

  it('case 2: past the grace, the report says SourceReachable=False and claims no local count', async () => {
    await eventually(async () => {
      const ccr = await reported(rig);
      const condition = ccr?.status?.conditions?.find((c) => c.type === 'SourceReachable');
      expect(condition).toMatchObject({ status: 'False', reason: 'SourceUnreachable' });
      expect(condition?.message).toBeTruthy();
      expect(ccr?.status?.resourceCounts).toEqual({ cache: 5 });
    }, DEADLINE_MS, 200);
  });

  it('case 3: readiness names the source lost after its first sync', async () => {
    await eventually(async () => {
      const ready = await readyz(rig.local);
      expect(ready.status).toBe(503);
      expect(ready.text).toMatch(/\[-\]source:remote failed: unreachable since /);
    }, DEADLINE_MS, 200);
  });

  it('case 4: changes made while it was gone are replicated when it is back, and the report counts them', async () => {
    for (let i = 0; i < 3; i++) expect((await request('POST', rig.things, { metadata: { name: `while-gone-${i}` } })).status).toBe(201);
    expect((await request('DELETE', `${rig.things}/kept-0`)).status).toBe(200);
    await rig.proxy.up();
    await expectCacheEqualsSource(rig);
    await eventually(async () => {
      const ccr = await reported(rig);
      expect(ccr?.status?.phase).toBe('Ready');
      expect(ccr?.status?.resourceCounts).toEqual({ local: 7, cache: 7 });
      expect(ccr?.status?.conditions?.some((c) => c.type === 'SourceReachable')).toBe(false);
      expect((await readyz(rig.local)).status).toBe(200);
    }, DEADLINE_MS, 200);
  });

});
