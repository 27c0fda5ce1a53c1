// Read-your-writes across replicas: two cachegate replicas A and B replicate the
// same remote kcp source S. A write through A answers X-Cachegate-Resource-Version; a read on B
// with that value as minResourceVersion waits until B has replicated it and then never answers
// an older version. A resourceVersion B cannot reach in time answers 504 with Retry-After; a
// malformed one answers 400. Real apps over real HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, eventually, request } from '../../helpers/kube-http.js';
import type { TestApp } from '../../helpers/test-app.js';
import { gql } from '../graphql/graphql-http.js';
import { readWithTokens, startReplicaPair } from './replica-pair.js';
import type { ReplicaPair } from './replica-pair.js';

const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';
/** WAIT_MS is the replicas' bound on a minResourceVersion wait: far above a loaded machine's replication lag, and what a 504 costs. */
const WAIT_MS = 5000;

describe('minResourceVersion across replicas', () => {
  let pair: ReplicaPair;
  let source: TestApp;
  let a: TestApp;
  let b: TestApp;
  let objectsA: string;
  let objectsB: string;

  beforeAll(async () => {
    pair = await startReplicaPair({ sourceFields: { watch: { bookmarkIntervalSeconds: 1 } }, resources: [{ gvr: GVR, kind: 'Instance' }], waitMs: WAIT_MS });
    ({ source, a, b } = pair);
    objectsA = `${a.url}/v1/objects/${GVR.group}/${GVR.version}/${GVR.resource}`;
    objectsB = `${b.url}/v1/objects/${GVR.group}/${GVR.version}/${GVR.resource}`;
  });
  afterAll(async () => pair?.stop());

  const readOnB = (name: string, ...minResourceVersions: string[]): ReturnType<typeof request> => readWithTokens(objectsB, name, minResourceVersions);

  it('case 1: a create through A is read from B with its minResourceVersion: 200 with the written object', async () => {
    const created = await request('POST', `${objectsA}?cluster=root&shard=s`, {
      apiVersion: `${GVR.group}/${GVR.version}`, kind: 'Instance', metadata: { name: 'across-1' }, spec: { size: 1 },
    });
    expect(created.status).toBe(201);
    const header = created.headers.get('x-cachegate-resource-version');
    expect(header).toBe(`s/root/${GVR.group}/${GVR.resource}/${created.body.metadata.resourceVersion}`);
    const read = await readOnB('across-1', header!);
    expect(read.status).toBe(200);
    expect(read.headers.get('x-cachegate-source')).toBe('cache');
    expect(read.body.metadata.uid).toBe(created.body.metadata.uid);
    expect(read.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    expect(read.body.spec).toEqual({ size: 1 });
  });

  it('case 2: 15 patches through A, each read at once from B with its minResourceVersion: never an older version', async () => {
    const stale: string[] = [];
    for (let i = 0; i < 15; i++) {
      const patched = await request('PATCH', `${objectsA}/across-1?cluster=root&shard=s`, { spec: { size: i + 2 } }, 'application/merge-patch+json');
      expect(patched.status).toBe(200);
      const header = patched.headers.get('x-cachegate-resource-version')!;
      const read = await readOnB('across-1', header);
      expect(read.status).toBe(200);
      const written = BigInt(patched.body.metadata.resourceVersion as string);
      if (BigInt(read.body.metadata.resourceVersion as string) < written || read.body.spec.size !== i + 2) {
        stale.push(`round ${i}: read ${read.body.metadata.resourceVersion} size ${read.body.spec.size}, wrote ${written}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it('case 3: the list routes honour minResourceVersion too', async () => {
    const created = await request('POST', `${objectsA}?cluster=root&shard=s`, { apiVersion: `${GVR.group}/${GVR.version}`, kind: 'Instance', metadata: { name: 'across-3' } });
    expect(created.status).toBe(201);
    const value = encodeURIComponent(created.headers.get('x-cachegate-resource-version')!);
    const list = await request('GET', `${b.url}/v1/schemas/${SCHEMA}/objects?cluster=root&name=across-3&minResourceVersion=${value}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((o: { metadata: { uid: string } }) => o.metadata.uid)).toEqual([created.body.metadata.uid]);
    const cached = await request('GET', `${b.url}/v1/cachedobjects?schema=${SCHEMA}&cluster=root&name=across-3&minResourceVersion=${value}`);
    expect(cached.status).toBe(200);
    expect(cached.body.items).toHaveLength(1);
  });

  it('case 4: a resourceVersion far in the future answers 504 with Retry-After and a Timeout Status after the bound', async () => {
    const started = performance.now();
    const read = await readOnB('across-1', 's/root/999999999999');
    const elapsed = performance.now() - started;
    expect(read.status).toBe(504);
    expect(read.headers.get('retry-after')).toBe('1');
    expect(read.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Timeout', code: 504 });
    expect(read.body.message).toContain('999999999999');
    expect(read.body.message).toContain(`within ${WAIT_MS} ms`);
    // It waited the bound out (a lower bound holds however slow the machine; an upper one would not).
    expect(elapsed).toBeGreaterThanOrEqual(WAIT_MS - 50);
  });

  it('case 5: a logical cluster without a ClusterCachedResource has nothing to wait for (200, not 504 at the bound); an unknown shard never counts: 504', async () => {
    const written = (await readOnB('across-1')).body.metadata.resourceVersion as string;
    expect((await readOnB('across-1', `s/root/${written}`, `s/elsewhere/999999999999`)).status).toBe(200);
    expect((await readOnB('across-1', `nope/root/1`)).status).toBe(504);
  });

  it('case 6: every value listed must hold; all reached → 200', async () => {
    const first = await request('POST', `${objectsA}?cluster=root&shard=s`, { apiVersion: `${GVR.group}/${GVR.version}`, kind: 'Instance', metadata: { name: 'across-6a' } });
    const second = await request('POST', `${objectsA}?cluster=root&shard=s`, { apiVersion: `${GVR.group}/${GVR.version}`, kind: 'Instance', metadata: { name: 'across-6b' } });
    const read = await readOnB('across-6a', first.headers.get('x-cachegate-resource-version')!, second.headers.get('x-cachegate-resource-version')!);
    expect(read.status).toBe(200);
    expect(read.body.metadata.uid).toBe(first.body.metadata.uid);
  });

  it('case 7: malformed values answer 400 with a Status', async () => {
    for (const bad of ['garbage', 's/root', 's/root/abc', 's//5', '/root/5', 's/root/5/6', 's/root/-1', 's/root/1e3']) {
      const read = await readOnB('across-1', bad);
      expect(read.status, bad).toBe(400);
      expect(read.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    }
  });

  it('case 8: GraphQL object(..., minResourceVersion) on B returns the object written through A', async () => {
    const created = await request('POST', `${objectsA}?cluster=root&shard=s`, {
      apiVersion: `${GVR.group}/${GVR.version}`, kind: 'Instance', metadata: { name: 'across-8' }, spec: { via: 'a' },
    });
    expect(created.status).toBe(201);
    const res = await gql(b.url, `query ($min: [String!]) {
      object(group: "${GVR.group}", version: "${GVR.version}", resource: "${GVR.resource}", name: "across-8", cluster: "root", shard: "s", minResourceVersion: $min)
    }`, { min: [created.headers.get('x-cachegate-resource-version')] });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.object.metadata.uid).toBe(created.body.metadata.uid);
    expect(res.body.data.object.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    expect(res.body.data.object.spec).toEqual({ via: 'a' });
  });

  it('case 9: GraphQL answers TIMEOUT (with retryAfterSeconds) and BAD_REQUEST, on object, cachedObject and cachedObjects', async () => {
    const res = await gql(b.url, `{
      late: object(group: "${GVR.group}", version: "${GVR.version}", resource: "${GVR.resource}", name: "across-1", cluster: "root", minResourceVersion: ["s/root/999999999999"])
      bad: cachedObject(name: "x", minResourceVersion: ["nonsense"]) { kind }
    }`);
    const codes = Object.fromEntries((res.body.errors as Array<{ path: string[]; extensions: { code: string; retryAfterSeconds?: number } }>)
      .map((e) => [e.path[0], e.extensions]));
    expect(codes['late']).toMatchObject({ code: 'TIMEOUT', retryAfterSeconds: 1 });
    expect(codes['bad']).toMatchObject({ code: 'BAD_REQUEST' });
    const list = await gql(b.url, `{ cachedObjects(filter: {schema: "${SCHEMA}", name: "across-8"}, minResourceVersion: ["s/root/1"]) { totalCount } }`);
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data.cachedObjects.totalCount).toBe(1);
  });

  it('case 10: with no writes, a quiet resource still advances on the source BOOKMARKs (interval 1 s)', async () => {
    // Make the source's resourceVersion move past the instances' last change with a write to another resource.
    const configMap = await request('POST', `${source.clusterUrl('root')}/api/v1/namespaces/default/configmaps`, { metadata: { name: 'elsewhere' } });
    expect(configMap.status).toBe(201);
    const rv = configMap.body.metadata.resourceVersion as string;
    await eventually(async () => expect((await readOnB('across-1', `s/root/${rv}`)).status).toBe(200), DEADLINE_MS, 100);
  });
});
