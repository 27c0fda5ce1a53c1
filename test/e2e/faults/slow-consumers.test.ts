// Slow consumers of the kube-API watch (SSE and GraphQL subscriptions have
// their own proofs in test/e2e/facade-rest and test/e2e/graphql):
//   case 1: embedded API: a client that stops reading is disconnected once its buffer passes
//           watch.maxBufferedBytes, while a client that reads receives every event.
//   case 2: the same on the cache API (CachedObjects).
//   case 3: a watch without resourceVersion over a collection larger than the bound receives the
//           whole initial state: that burst is paced by the socket, not counted as slowness.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { stalledWatch } from '../../helpers/stalled-watch.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'slow.example.com', version: 'v1', resource: 'things' };
const CACHE_WATCH = '/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects?watch=true&labelSelector=cache.kcp.io%2Fobject-resource%3Dthings';
const BLOB = 'x'.repeat(48 * 1024);

/** Reader reads a watch continuously and remembers the names of the objects it saw. */
interface Reader {
  readonly names: Set<string>;
  ended(): boolean;
  close(): void;
}

async function readWatch(url: string): Promise<Reader> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  expect(res.status).toBe(200);
  const names = new Set<string>();
  let ended = false;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const event = JSON.parse(buffer.slice(0, newline)) as { object: { metadata: { name: string } } };
          names.add(event.object.metadata.name);
          buffer = buffer.slice(newline + 1);
        }
      }
    } catch {
      // aborted by close()
    }
    ended = true;
  })();
  return { names, ended: () => ended, close: () => controller.abort() };
}

/** stalledWatch opens a watch on a plain socket and stops reading once the response head arrived. */

/** watchClients reads cachegate_watch_clients{api} from /metrics. */
async function watchClients(base: string, api: 'embedded' | 'cache'): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`cachegate_watch_clients{api="${api}"}`));
  if (!line) throw new Error(`cachegate_watch_clients{api="${api}"} is not in /metrics`);
  return Number(line.split(' ')[1]);
}

describe('kube-API watch: slow consumers', () => {
  let app: TestApp;
  let things: string;
  let created = 0;

  beforeAll(async () => {
    app = await startTestApp({ watch: { maxBufferedBytes: 256 * 1024 } });
    const root = app.clusterUrl('root');
    things = `${root}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`;
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Thing', versions: [GVR.version] }))).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('things', GVR))).status).toBe(201);
    // The app's own informers watch the embedded API too: let them settle before counting watchers.
    await eventually(async () => expect((await request('GET', `${root}${CCRS}/things`)).body.status?.phase).toBe('Ready'));
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** proveCutOff: big objects are written until the stalled watch is dropped; the reader gets them all. */
  async function proveCutOff(path: string, api: 'embedded' | 'cache', nameOf: (name: string) => string): Promise<void> {
    const baseline = await watchClients(app.url, api);
    const stalled = await stalledWatch(app.url, path);
    const closed = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
    const reader = await readWatch(app.url + path);
    await eventually(async () => expect(await watchClients(app.url, api)).toBe(baseline + 2));
    const first = created;
    // The kernel's socket buffers fill first, then the server's, which must not grow past the bound.
    while (created - first < 400 && (await watchClients(app.url, api)) > baseline + 1) {
      expect((await request('POST', things, { metadata: { name: `big-${created}` }, spec: { blob: BLOB } })).status).toBe(201);
      created += 1;
    }
    await eventually(async () => expect(await watchClients(app.url, api)).toBe(baseline + 1));
    const last = nameOf(`big-${created - 1}`);
    await eventually(() => expect(reader.names.has(last)).toBe(true));
    expect(reader.ended()).toBe(false);
    for (let i = first; i < created; i++) expect(reader.names.has(nameOf(`big-${i}`))).toBe(true);
    // The server dropped the connection: once the stalled client reads again, it sees the end.
    stalled.resume();
    await closed;
    reader.close();
  }

  it('case 1: embedded API: a stalled watcher is cut off at the bound; a reading one gets every event', async () => {
    await proveCutOff(`/clusters/root/apis/${GVR.group}/${GVR.version}/${GVR.resource}?watch=true`, 'embedded', (name) => name);
  });

  it('case 2: cache API: the same for a CachedObjects watch', async () => {
    await proveCutOff(CACHE_WATCH, 'cache', (name) => `v1.things.slow.example.com.${name}`);
  });

  it('case 3: the initial state, larger than the bound, reaches a reading watcher whole', async () => {
    expect(created * BLOB.length).toBeGreaterThan(256 * 1024);
    const list = await request('GET', things);
    const reader = await readWatch(`${things}?watch=true`);
    await eventually(() => expect(reader.names.size).toBe(list.body.items.length));
    expect(reader.ended()).toBe(false);
    reader.close();
  });
});
