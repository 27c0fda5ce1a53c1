// GraphQL subscription queues bounded by bytes: EventStreams over the running app's read model,
// with objects written through the embedded API and replicated into the cache. Nothing reads the
// stream while the writes happen, which is what a subscriber whose socket pushed back looks like.
//   case 1: a subscriber that falls more than queueBytes behind on a large object is cut off with
//           SLOW_CONSUMER (limitBytes) well before the event-count bound, and what it held is
//           dropped: its queue never pins more than queueBytes of versions, not 1000 copies.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreams } from '../../../src/graphql/event-streams.js';
import type { ReadEvent, ReadWatch } from '../../../src/read/read-model.js';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'queues.example.com', version: 'v1', resource: 'payloads' };
const SCHEMA = 'v1.payloads.queues.example.com';
const BLOB = 'x'.repeat(200_000);
const QUEUE_BYTES = 1_000_000;
const PATCHES = 20;

describe('GraphQL subscription queues bounded by bytes', () => {
  let app: TestApp;
  let payloads: string;

  beforeAll(async () => {
    app = await startTestApp();
    const root = app.clusterUrl('root');
    payloads = `${root}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`;
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Payload', versions: [GVR.version] }))).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('payloads', GVR))).status).toBe(201);
    await eventually(async () => expect((await request('GET', `${root}${CCRS}/payloads`)).body.status?.phase).toBe('Ready'));
  });
  afterAll(async () => app?.stop());

  it('case 1: a subscriber more than queueBytes behind is cut off with SLOW_CONSUMER', async () => {
    expect((await request('POST', payloads, { metadata: { name: 'big' }, spec: { blob: BLOB, n: 0 } })).status).toBe(201);
    const filter = { schema: SCHEMA, name: 'big' };
    await eventually(async () => expect((await request('GET', `${app.url}/v1/cachedobjects?schema=${SCHEMA}&name=big`)).body.items).toHaveLength(1));
    const streams = new EventStreams({ read: app.app.read, queueSize: 1000, queueBytes: QUEUE_BYTES });
    let produced = 0;
    const counter: ReadWatch = await app.app.read.watchCachedObjects(filter, {}, () => produced++);
    const stream = await streams.stream(filter);
    try {
      for (let n = 1; n <= PATCHES; n++) {
        expect((await request('PATCH', `${payloads}/big`, { spec: { n } }, 'application/merge-patch+json')).status).toBe(200);
      }
      await eventually(() => expect(produced).toBe(PATCHES));
      // Read what the stream kept: never more pulls than events produced, so an unbounded queue ends the loop too.
      const delivered: ReadEvent[] = [];
      let failure: unknown;
      for (let i = 0; i < produced && failure === undefined; i++) {
        await stream.next().then((result) => void (result.done ? undefined : delivered.push(result.value)), (err: unknown) => void (failure = err));
      }
      // Cut by bytes (20 events are far from the count bound of 1000); what it held was dropped.
      expect(failure).toMatchObject({
        message: `subscription ended: the client fell ${QUEUE_BYTES} bytes behind`,
        extensions: { code: 'SLOW_CONSUMER', limit: 1000, limitBytes: QUEUE_BYTES },
      });
      expect(delivered).toEqual([]);
      expect(await stream.next()).toEqual({ value: undefined, done: true });
    } finally {
      counter.stop();
      await stream.return?.();
      streams.closeAll();
    }
  });
});
