// A kcp-kind source (another cachegate's embedded source, a real process) is killed with SIGKILL
// and restarted empty on the same port, so its resourceVersions start again from 1; then it is
// given different content. The cache must come to equal the new source exactly (no stale copy,
// none missing), without ever deleting a copy of a new object on the way, the CCR report must
// show only the new CCRs, and readiness must pass again.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, crd, eventually, request } from '../../helpers/kube-http.js';
import { freePort, startProcess, waitReady } from '../../helpers/process.js';
import type { Started } from '../../helpers/process.js';
import { CCRS, cachedObjects, ccr } from '../../helpers/replication.js';
import { kubeconfigFor } from '../../helpers/kubeconfig.js';
import { readyz, startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'restart.example.com', version: 'v1', resource: 'things' };
/** CONVERGENCE_MS bounds the wait for the cache to equal a source of a few hundred objects. */
const CONVERGENCE_MS = 2 * DEADLINE_MS;

interface Original {
  metadata: { name: string; uid: string; resourceVersion: string };
}

async function startSource(port: number): Promise<Started> {
  const started = startProcess(['--port', String(port)]);
  await waitReady(started, `http://127.0.0.1:${port}`);
  return started;
}

async function seed(base: string, ccrName: string, names: readonly string[], generation: string): Promise<void> {
  expect((await request('POST', `${base}${CRDS}`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Thing', versions: [GVR.version] }))).status).toBe(201);
  expect((await request('POST', `${base}${CCRS}`, ccr(ccrName, GVR))).status).toBe(201);
  const things = `${base}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`;
  for (const name of names) {
    const res = await request('POST', things, { metadata: { name }, spec: { generation } });
    expect(res.status).toBe(201);
  }
}

/** sameAsSource compares the cache's copies of the remote shard with the source's objects: name, uid and version. */
async function expectCacheEqualsSource(local: TestApp, sourceBase: string): Promise<void> {
  const source = (await request('GET', `${sourceBase}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`)).body.items as Original[];
  const want = source.map((o) => `${o.metadata.name}|${o.metadata.uid}|${o.metadata.resourceVersion}`).sort();
  const copies = await cachedObjects(local.url, '', 'remote', 'root');
  const got = copies.map((c) => {
    const raw = c.spec.raw as Original;
    return `${raw.metadata.name}|${raw.metadata.uid}|${raw.metadata.resourceVersion}`;
  }).sort();
  expect(got).toEqual(want);
}

/** DeletedCopies records, from a watch on the cache, the originals (uid) whose copies were deleted. */
interface DeletedCopies {
  readonly uids: Set<string>;
  stop(): void;
}

async function recordDeletedCopies(local: TestApp): Promise<DeletedCopies> {
  const uids = new Set<string>();
  const abort = new AbortController();
  const res = await fetch(`${local.url}/services/cache/shards/remote/clusters/root/apis/cache.kcp.io/v1alpha1/cachedobjects?watch=true`, { signal: abort.signal });
  expect(res.status).toBe(200);
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const event = JSON.parse(buffer.slice(0, newline)) as { type: string; object: { spec?: { raw?: Original } } };
        buffer = buffer.slice(newline + 1);
        const uid = event.object.spec?.raw?.metadata.uid;
        if (event.type === 'DELETED' && uid !== undefined) uids.add(uid);
      }
    }
  })().catch(() => undefined);
  return { uids, stop: () => { abort.abort(); void reading; } };
}

async function reportedCcrNames(local: TestApp): Promise<string[]> {
  const res = await request('GET', `${local.url}/v1/clustercachedresources`);
  const items = res.body.items as Array<{ metadata: { name: string; annotations: Record<string, string> } }>;
  return items.filter((i) => i.metadata.annotations['kcp.io/shard'] === 'remote').map((i) => i.metadata.name).sort();
}

describe('a source restarted empty on the same address', () => {
  let port: number;
  let source: Started | undefined;
  let local: TestApp;
  const sourceBase = (): string => `http://127.0.0.1:${port}/clusters/root`;

  beforeAll(async () => {
    port = await freePort();
    source = await startSource(port);
    local = await startTestApp({
      embedded: { enabled: false },
      sources: [{ name: 'remote', kind: 'kcp', kubeconfig: kubeconfigFor(`http://127.0.0.1:${port}`) }],
    });
  });
  afterAll(async () => {
    source?.killAll();
    await local?.stop();
  });

  it('case 1: the first incarnation is replicated', async () => {
    const names = Array.from({ length: 250 }, (_, i) => `old-${String(i).padStart(3, '0')}`);
    await seed(sourceBase(), 'things-old', names, 'first');
    await eventually(() => expectCacheEqualsSource(local, sourceBase()), CONVERGENCE_MS, 100);
    expect(await reportedCcrNames(local)).toEqual(['things-old']);
  }, 2 * CONVERGENCE_MS);

  it('case 2: after kill -9 and an empty restart with other content, the cache equals the new source', async () => {
    source?.killAll();
    await source?.exited;
    source = await startSource(port);
    const restartedAt = performance.now();
    const deleted = await recordDeletedCopies(local);
    // Fewer objects than before, so the new versions stay below the old ones; some names are
    // reused (new UIDs, and versions that collide with old ones), most are new.
    const names = [...Array.from({ length: 20 }, (_, i) => `old-${String(i).padStart(3, '0')}`), ...Array.from({ length: 40 }, (_, i) => `new-${i}`)];
    await seed(sourceBase(), 'things-new', names, 'second');
    const seededAt = performance.now();
    await eventually(async () => {
      await expectCacheEqualsSource(local, sourceBase());
      expect(await reportedCcrNames(local)).toEqual(['things-new']);
      expect((await readyz(local)).status).toBe(200);
    }, CONVERGENCE_MS, 100);
    const copies = await cachedObjects(local.url, '', 'remote', 'root');
    expect(new Set(copies.map((c) => (c.spec.raw as { spec: { generation: string } }).spec.generation))).toEqual(new Set(['second']));
    // No copy of a new object was ever taken away on the way (as a purge of the vanished CCR's
    // resource would, while the new CCR for it was still being set up).
    deleted.stop();
    const newUids = copies.map((c) => (c.spec.raw as Original).metadata.uid);
    expect(newUids.filter((uid) => deleted.uids.has(uid))).toEqual([]);
    const now = performance.now();
    console.log(`source restart: the cache equalled the new source ${Math.round(now - restartedAt)} ms after it was ready, ${Math.round(now - seededAt)} ms after its last write`);
  }, 4 * CONVERGENCE_MS);
});
