// Concurrent writers on one object through the REST facade: 8 writers × 50 rounds of
// patch-then-read. No client ever reads a version older than one it read (or wrote) before, and
// once the writes stop the facade answers the source's last committed version.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const WRITERS = 8;
const ROUNDS = 50;
const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };

describe('concurrent writers with the overlay', () => {
  let app: TestApp;
  let objectUrl: string;
  let sourceUrl: string;

  beforeAll(async () => {
    app = await startTestApp({ cache: { enabled: true, gvks: ['machines.svm.io/v1alpha1/Instance'], ttl: '2m' } });
    const root = app.clusterUrl('root');
    await request('POST', `${root}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Instance' }));
    await request('POST', `${root}${CCRS}`, ccr('instances', GVR));
    const created = await request('POST', `${app.url}/v1/objects/machines.svm.io/v1alpha1/instances?cluster=root`, { metadata: { name: 'contended' }, spec: { writer: -1 } });
    expect(created.status).toBe(201);
    objectUrl = `${app.url}/v1/objects/machines.svm.io/v1alpha1/instances/contended?cluster=root`;
    sourceUrl = `${root}/apis/machines.svm.io/v1alpha1/instances/contended`;
  });
  afterAll(async () => app?.stop());

  it('case 1: reads never go backwards per client, include the client\'s own writes, and end at the last commit', async () => {
    const violations: string[] = [];
    const writer = async (id: number): Promise<void> => {
      let seen = 0n;
      for (let round = 0; round < ROUNDS; round++) {
        const patched = await request('PATCH', objectUrl, { spec: { writer: id, round } }, 'application/merge-patch+json');
        if (patched.status !== 200) {
          violations.push(`writer ${id} round ${round}: PATCH answered ${patched.status}`);
          return;
        }
        const written = BigInt(patched.body.metadata.resourceVersion);
        const read = await request('GET', objectUrl);
        const got = BigInt(read.body.metadata?.resourceVersion ?? '0');
        if (got < written) violations.push(`writer ${id} round ${round}: read ${got} after writing ${written}`);
        if (got < seen) violations.push(`writer ${id} round ${round}: read ${got} after having read ${seen}`);
        seen = got > written ? got : written;
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id)));
    expect(violations).toEqual([]);
    const committed = (await request('GET', sourceUrl)).body.metadata.resourceVersion;
    const final = await request('GET', objectUrl);
    expect(final.body.metadata.resourceVersion).toBe(committed);
    // Once replication catches up the answer comes from the cache, still at the last commit.
    await eventually(async () => {
      const settled = await request('GET', objectUrl);
      expect(settled.headers.get('x-cachegate-source')).toBe('cache');
      expect(settled.body.metadata.resourceVersion).toBe(committed);
    });
  });
});
