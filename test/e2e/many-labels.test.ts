// An object with 15,000 labels (within Kubernetes' limits: labels have no total size limit, only
// one per key and value), replicated by a ClusterCachedResource. Patching one of its labels must
// cost the label that changed, not every label squared: the patches complete, reach the cache,
// and point reads of other objects stay served meanwhile. Before, each index update compared every
// label with every other one, so one patch took seconds and 20 of them minutes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/kube-http.js';
import { CCRS, cachedObjects, ccr } from '../helpers/replication.js';
import { startTestApp } from '../helpers/test-app.js';
import type { TestApp } from '../helpers/test-app.js';

const LABELS = 15_000;
const PATCHES = 20;
/** ALL_PATCHES_MS bounds the 20 patch-and-replicate rounds: seconds now, minutes before the fix. */
const ALL_PATCHES_MS = 90_000;
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const PATCHED_LABEL = 'example.com/label-7';

function manyLabels(): Record<string, string> {
  const labels: Record<string, string> = {};
  for (let i = 0; i < LABELS; i++) labels[`example.com/label-${i}`] = `v${i}`;
  return labels;
}

describe('an object with 15k labels replicated by a CCR', () => {
  let app: TestApp;
  let root: string;
  const pointRead = (name: string): string => `${app.url}/v1/objects/core/v1/configmaps/${name}?cluster=root&namespace=default`;

  /** cachedLabel reads the patched label of the big object's copy through the facade (undefined until it is there). */
  async function cachedLabel(): Promise<string | undefined> {
    const res = await request('GET', pointRead('big'));
    return res.status === 200 ? res.body.metadata.labels[PATCHED_LABEL] : undefined;
  }

  async function waitFor(check: () => Promise<boolean>, deadline: number): Promise<void> {
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('deadline passed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeAll(async () => {
    app = await startTestApp();
    root = app.clusterUrl('root');
    expect((await request('POST', `${root}${CONFIGMAPS}`, { metadata: { name: 'big', labels: manyLabels() }, data: { a: 'b' } })).status).toBe(201);
    expect((await request('POST', `${root}${CONFIGMAPS}`, { metadata: { name: 'small', labels: { app: 'small' } }, data: { a: 'b' } })).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('configmaps', { group: '', version: 'v1', resource: 'configmaps' }))).status).toBe(201);
    await waitFor(async () => (await cachedLabel()) === 'v7', Date.now() + 60_000);
  }, 120_000);
  afterAll(async () => app?.stop());

  it('case 1: 20 single-label patches each complete and reach the cache, and point reads of another object stay served', async () => {
    const deadline = Date.now() + ALL_PATCHES_MS;
    for (let p = 0; p < PATCHES; p++) {
      const patched = await request('PATCH', `${root}${CONFIGMAPS}/big`, { metadata: { labels: { [PATCHED_LABEL]: `p${p}` } } }, 'application/merge-patch+json');
      expect(patched.status).toBe(200);
      expect(Object.keys(patched.body.metadata.labels)).toHaveLength(LABELS);
      const small = await request('GET', pointRead('small'));
      expect(small.status).toBe(200);
      await waitFor(async () => (await cachedLabel()) === `p${p}`, deadline);
    }
  }, ALL_PATCHES_MS + 60_000);

  it('case 2: the cache indexes the copy under the patched label value only, and under every other label', async () => {
    const select = async (selector: string): Promise<string[]> =>
      (await cachedObjects(app.url, `?labelSelector=${encodeURIComponent(selector)}`)).map((co) => co.spec.raw.metadata.name);
    expect(await select(`${PATCHED_LABEL}=p${PATCHES - 1}`)).toEqual(['big']);
    expect(await select(`${PATCHED_LABEL}=p${PATCHES - 2}`)).toEqual([]);
    expect(await select(`${PATCHED_LABEL}=v7`)).toEqual([]);
    expect(await select(`example.com/label-${LABELS - 1}=v${LABELS - 1}`)).toEqual(['big']);
    expect(await select('example.com/label-0')).toEqual(['big']);
    expect(await select('app=small')).toEqual(['small']);
  });
});
