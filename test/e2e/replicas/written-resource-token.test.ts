// Read-your-writes tokens name the resource written, so a read waits only for that resource's
// replication. Two cachegate replicas A and B replicate one remote kcp source S whose logical
// cluster `root` has two ClusterCachedResources: `instances` (written) and `widgets` (quiet:
// nobody writes it, and S sends no BOOKMARKs, so its controller never advances past its list).
// A write through A answers `s/root/machines.svm.io/instances/<rv>`; B, reading with it, waits for
// its instances controller only. With the old `<shard>/<cluster>/<rv>` tokens every such read
// waited for the quiet controller too and answered 504 at the bound. Real apps over real HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../helpers/kube-http.js';
import type { TestApp } from '../../helpers/test-app.js';
import { readWithTokens, startReplicaPair } from './replica-pair.js';
import type { ReplicaPair } from './replica-pair.js';

const INSTANCES = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const WIDGETS = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'widgets' };
const WAIT_MS = 5000;
const PAIRS = 100;

describe('a write\'s token names its resource; a read on another replica waits for that resource only', () => {
  let pair: ReplicaPair;
  let a: TestApp;
  let b: TestApp;
  let objectsA: string;
  let objectsB: string;

  beforeAll(async () => {
    // No BOOKMARKs at all: a controller whose resource nobody writes stays at its list's resourceVersion.
    pair = await startReplicaPair({
      sourceFields: { watch: { bookmarkIntervalSeconds: 0 } },
      resources: [{ gvr: INSTANCES, kind: 'Instance' }, { gvr: WIDGETS, kind: 'Widget' }],
      waitMs: WAIT_MS,
    });
    ({ a, b } = pair);
    objectsA = `${a.url}/v1/objects/${INSTANCES.group}/${INSTANCES.version}/${INSTANCES.resource}`;
    objectsB = `${b.url}/v1/objects/${INSTANCES.group}/${INSTANCES.version}/${INSTANCES.resource}`;
  });
  afterAll(async () => pair?.stop());

  const readOnB = (name: string, ...tokens: string[]): ReturnType<typeof request> => readWithTokens(objectsB, name, tokens);

  it(`case 1: ${PAIRS} writes through A (creates, then patches), each read at once on B with its token: ${PAIRS} answers 200 with the write`, async () => {
    const stale: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const name = `pair-${i % (PAIRS / 2)}`;
      const written = i < PAIRS / 2
        ? await request('POST', `${objectsA}?cluster=root&shard=s`, { apiVersion: `${INSTANCES.group}/${INSTANCES.version}`, kind: 'Instance', metadata: { name }, spec: { round: i } })
        : await request('PATCH', `${objectsA}/${name}?cluster=root&shard=s`, { spec: { round: i } }, 'application/merge-patch+json');
      expect(written.status, `write ${i}`).toBe(i < PAIRS / 2 ? 201 : 200);
      const rv = written.body.metadata.resourceVersion as string;
      const token = written.headers.get('x-cachegate-resource-version');
      expect(token).toBe(`s/root/${INSTANCES.group}/${INSTANCES.resource}/${rv}`);
      const read = await readOnB(name, token!);
      expect(read.status, `read ${i}: ${JSON.stringify(read.body)}`).toBe(200);
      expect(read.headers.get('x-cachegate-source')).toBe('cache');
      if (read.body.metadata.resourceVersion !== rv || read.body.spec.round !== i) {
        stale.push(`pair ${i}: read ${read.body.metadata.resourceVersion} round ${read.body.spec.round}, wrote ${rv}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it('case 2: a GraphQL mutation through A answers the token in the same header; GraphQL and REST reads on B wait for it', async () => {
    const create = (name: string, round: number): string => `createObject(group: "${INSTANCES.group}", version: "${INSTANCES.version}", resource: "${INSTANCES.resource}", cluster: "root", shard: "s", object: {metadata: {name: "${name}"}, spec: {round: ${round}}})`;
    const res = await fetch(`${a.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `mutation { first: ${create('gql-1', 1)} second: ${create('gql-2', 2)} }` }),
    });
    type Written = { metadata: { resourceVersion: string; uid: string } };
    const body = (await res.json()) as { data: { first: Written; second: Written }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const { first, second } = body.data;
    const tokens = res.headers.get('x-cachegate-resource-version')!.split(', ');
    expect(tokens).toEqual([first, second].map((o) => `s/root/${INSTANCES.group}/${INSTANCES.resource}/${o.metadata.resourceVersion}`));
    const read = await fetch(`${b.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `query ($min: [String!]) { object(group: "${INSTANCES.group}", version: "${INSTANCES.version}", resource: "${INSTANCES.resource}", name: "gql-2", cluster: "root", shard: "s", minResourceVersion: $min) }`,
        variables: { min: tokens },
      }),
    });
    const got = (await read.json()) as { data: { object: { metadata: { uid: string } } }; errors?: unknown };
    expect(got.errors).toBeUndefined();
    expect(got.data.object.metadata.uid).toBe(second.metadata.uid);
    expect((await readOnB('gql-1', ...tokens)).body.metadata.uid).toBe(first.metadata.uid);
  });

  it('case 3: a token of a resource no ClusterCachedResource replicates has nothing to wait for: 200, not 504 at the bound', async () => {
    const configMap = await request('POST', `${a.url}/v1/objects/core/v1/configmaps?cluster=root&shard=s&namespace=default`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unreplicated' } });
    expect(configMap.status).toBe(201);
    const token = configMap.headers.get('x-cachegate-resource-version');
    expect(token).toBe(`s/root/core/configmaps/${configMap.body.metadata.resourceVersion}`);
    const read = await readOnB('seed', token!);
    expect(read.status).toBe(200);
    expect(read.body.metadata.name).toBe('seed');
  });

  it('case 4: the 3-part form keeps its meaning, every controller of the cluster: the quiet one holds it to 504', async () => {
    const written = await request('PATCH', `${objectsA}/pair-0?cluster=root&shard=s`, { spec: { round: 'old-form' } }, 'application/merge-patch+json');
    expect(written.status).toBe(200);
    const read = await readOnB('pair-0', `s/root/${written.body.metadata.resourceVersion}`);
    expect(read.status).toBe(504);
    expect(read.body).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
    expect(read.body.message).toContain('shard "s" cluster "root"');
  });

  it('case 5: a malformed 5-part token answers 400 with a Status naming the wrong part', async () => {
    for (const [bad, problem] of [
      ['s/root//instances/5', '"" is not an API group'],
      ['s/root/machines.svm.io/Instances/5', '"Instances" is not a resource name'],
      ['s/root/machines.svm.io/instances/v5', 'the resourceVersion "v5" is not a decimal number'],
      ['s/root/instances/5', 'it has 4 parts'],
    ] as const) {
      const read = await readOnB('seed', bad);
      expect(read.status, bad).toBe(400);
      expect(read.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
      expect(read.body.message).toContain(problem);
    }
  });
});
