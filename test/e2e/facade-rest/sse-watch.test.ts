// The REST facade's watch as Server-Sent Events, end to end: events for objects created after
// the client connected, filters, resuming with Last-Event-ID or resourceVersion, 410 for a
// version older than the event window, the SSE gauge, cutting off a client that stops reading,
// and ending open streams when the app stops.

import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { Gauge, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facadePlugin } from '../../../src/http/facade/facade-plugin.js';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { stalledWatch } from '../../helpers/stalled-watch.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { SseClient } from './sse-client.js';
import type { SseEvent } from './sse-client.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';

interface CachedObjectData {
  kind: string;
  metadata: { name: string; resourceVersion: string };
  spec: { raw: { metadata: { name: string; labels?: Record<string, string> }; spec?: Record<string, unknown> } };
}

const dataOf = (event: SseEvent): CachedObjectData => JSON.parse(event.data) as CachedObjectData;
const originalName = (event: SseEvent): string => dataOf(event).spec.raw.metadata.name;
const isEvent = (type: string, name: string) => (event: SseEvent): boolean => event.event === type && originalName(event) === name;

describe('REST facade: watch as Server-Sent Events', () => {
  let app: TestApp;
  let watchUrl: string;
  let instances: string;
  const clients: SseClient[] = [];
  const open = async (url: string, headers: Record<string, string> = {}): Promise<SseClient> => {
    const client = await SseClient.open(url, headers);
    clients.push(client);
    return client;
  };
  const create = async (name: string, labels: Record<string, string> = {}, spec: Record<string, unknown> = {}): Promise<void> => {
    expect((await request('POST', instances, { metadata: { name, labels }, spec })).status).toBe(201);
  };
  let firstAddedId = '';

  beforeAll(async () => {
    app = await startTestApp({ store: { eventWindow: 100 } });
    watchUrl = `${app.url}/v1/cachedobjects?watch=true&schema=${SCHEMA}`;
    const root = app.clusterUrl('root');
    instances = `${root}/apis/machines.svm.io/v1alpha1/instances`;
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('instances', GVR))).status).toBe(201);
    await create('seed-1');
    await eventually(async () => expect((await request('GET', `${app.url}/v1/cachedobjects?schema=${SCHEMA}`)).body.items).toHaveLength(1));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await app?.stop();
  });

  it('case 1: a client connected before an object is created receives ADDED for it', async () => {
    const client = await open(watchUrl);
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toMatch(/^text\/event-stream/);
    await create('sse-1', { color: 'green' });
    const events = await client.until(isEvent('ADDED', 'sse-1'));
    const added = events.at(-1)!;
    expect(added.id).toMatch(/^[0-9]+$/);
    expect(dataOf(added)).toMatchObject({ kind: 'CachedObject', metadata: { name: `${SCHEMA}.sse-1` } });
    expect(dataOf(added).spec.raw.metadata.labels).toEqual({ color: 'green' });
    firstAddedId = added.id!;
  });

  it('case 2: a labelSelector narrows the stream to matching originals', async () => {
    const client = await open(`${watchUrl}&labelSelector=${encodeURIComponent('color=blue')}`);
    await create('sse-red', { color: 'red' });
    await create('sse-blue', { color: 'blue' });
    const first = await client.next();
    expect(first?.event).toBe('ADDED');
    expect(originalName(first!)).toBe('sse-blue');
  });

  it('case 3: resuming with Last-Event-ID delivers only the events after it, in order', async () => {
    expect(firstAddedId).not.toBe('');
    await request('PATCH', `${instances}/sse-1`, { spec: { size: 2 } }, 'application/merge-patch+json');
    await create('sse-2');
    const client = await open(watchUrl, { 'last-event-id': firstAddedId });
    const events = await client.until(isEvent('ADDED', 'sse-2'));
    for (const event of events) expect(BigInt(event.id!)).toBeGreaterThan(BigInt(firstAddedId));
    expect(events.some(isEvent('ADDED', 'sse-1'))).toBe(false);
    expect(events.find((event) => originalName(event) === 'sse-1')?.event).toBe('MODIFIED');
    const ids = events.map((event) => BigInt(event.id!));
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
  });

  it('case 4: resourceVersion from a list resumes after the list; Last-Event-ID wins over it', async () => {
    const list = await request('GET', `${app.url}/v1/cachedobjects?schema=${SCHEMA}`);
    const listVersion: string = list.body.metadata.resourceVersion;
    await create('sse-3');
    const fromList = await open(`${watchUrl}&resourceVersion=${listVersion}`);
    const first = await fromList.next();
    expect(first && originalName(first)).toBe('sse-3');
    expect(first?.event).toBe('ADDED');
    const headerWins = await open(`${watchUrl}&resourceVersion=1`, { 'last-event-id': listVersion });
    expect(headerWins.status).toBe(200);
    expect(originalName((await headerWins.next())!)).toBe('sse-3');
  });

  it('case 5: deleting an original is a DELETED event', async () => {
    const client = await open(watchUrl);
    expect((await request('DELETE', `${instances}/sse-2`)).status).toBe(200);
    const events = await client.until((event) => event.event === 'DELETED');
    expect(originalName(events.at(-1)!)).toBe('sse-2');
  });

  it('case 6: a malformed watch flag or resume point is a 400 Status before any stream', async () => {
    for (const [url, headers] of [
      [`${app.url}/v1/cachedobjects?watch=maybe`, {}],
      [watchUrl, { 'last-event-id': 'abc' }],
      [`${watchUrl}&resourceVersion=x1`, {}],
      [`${watchUrl}&labelSelector=${encodeURIComponent('color in (')}`, {}],
    ] as const) {
      const res = await fetch(url, { headers });
      expect(res.status, url).toBe(400);
      expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    }
  });

  it('case 7: watch=1 and watch=True also stream; /metrics counts the open streams in cachegate_sse_clients', async () => {
    for (const client of clients.splice(0)) client.close();
    await eventually(async () => expect(await sseGauge(app.url)).toBe(0));
    const a = await open(`${app.url}/v1/cachedobjects?watch=1`);
    const b = await open(`${app.url}/v1/cachedobjects?watch=True`);
    expect([a.headers['content-type'], b.headers['content-type']]).toEqual([
      expect.stringMatching(/^text\/event-stream/), expect.stringMatching(/^text\/event-stream/),
    ]);
    await eventually(async () => expect(await sseGauge(app.url)).toBe(2));
    a.close();
    await eventually(async () => expect(await sseGauge(app.url)).toBe(1));
  });

  it('case 8: a resume point older than the event window is HTTP 410 Expired before the stream starts', async () => {
    for (let i = 0; i < 110; i++) {
      await request('PATCH', `${instances}/seed-1`, { spec: { round: i } }, 'application/merge-patch+json');
    }
    await eventually(async () => {
      const res = await request('GET', `${app.url}/v1/cachedobjects/${SCHEMA}.seed-1`);
      expect(res.body.spec.raw.spec.round).toBe(109);
    });
    for (const [url, headers] of [[`${watchUrl}&resourceVersion=${firstAddedId}`, {}], [watchUrl, { 'last-event-id': firstAddedId }]] as const) {
      const res = await fetch(url, { headers });
      expect(res.status).toBe(410);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    }
  });

  describe('a facade with a small buffer bound and a fast keep-alive, over the same read model', () => {
    let small: FastifyInstance;
    let registry: Registry;
    let base: string;

    beforeAll(async () => {
      registry = new Registry();
      const sseClients = new Gauge({ name: 'cachegate_sse_clients', help: 'open SSE streams', registers: [registry] });
      small = Fastify();
      await small.register(facadePlugin, { read: app.app.read, sseClients, sseMaxBufferedBytes: 64 * 1024, sseKeepAliveMs: 20 });
      base = await small.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => small?.close());

    const openStreams = async (): Promise<number> => (await registry.getSingleMetric('cachegate_sse_clients')!.get()).values[0]?.value ?? 0;

    it('case 9: idle streams get `: keep-alive` comments', async () => {
      const client = await open(`${base}/v1/cachedobjects?watch=true&schema=none.such.schema`);
      await client.waitFor(() => client.comments >= 3);
      expect(client.comments).toBeGreaterThanOrEqual(3);
      client.close();
      await eventually(async () => expect(await openStreams()).toBe(0));
    });

    it('case 10: a client that stops reading is disconnected once its buffer passes the bound; a reading one is not', async () => {
      const stalled = await stalledWatch(base, `/v1/cachedobjects?watch=true&schema=${SCHEMA}`, { accept: 'text/event-stream' });
      const reading = await open(`${base}/v1/cachedobjects?watch=true&schema=${SCHEMA}`);
      expect(await openStreams()).toBe(2);
      const closed = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
      // Events of ~48 KiB each, until the stalled client is cut: the kernel's socket buffers fill
      // first, then the server's, which must not grow past the bound.
      const blob = 'x'.repeat(48 * 1024);
      let created = 0;
      while (created < 600 && (await openStreams()) > 1) await create(`big-${created++}`, {}, { blob });
      await eventually(async () => expect(await openStreams()).toBe(1));
      const last = `big-${created - 1}`;
      await reading.until(isEvent('ADDED', last));
      expect(reading.ended).toBe(false);
      stalled.resume();
      await closed;
      reading.close();
    });
  });

  it('case 11: stopping the app ends every open stream', async () => {
    const client = await open(watchUrl);
    await eventually(async () => expect(await sseGauge(app.url)).toBeGreaterThanOrEqual(1));
    await app.stop();
    await client.waitFor(() => false);
    expect(client.ended).toBe(true);
  });
});

// sseGauge reads cachegate_sse_clients from the app's /metrics.
async function sseGauge(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('cachegate_sse_clients '));
  if (!line) throw new Error('cachegate_sse_clients is not in /metrics');
  return Number(line.split(' ')[1]);
}

// rawWatch opens a watch on a plain TCP socket and resolves, paused, once the response head arrived.
