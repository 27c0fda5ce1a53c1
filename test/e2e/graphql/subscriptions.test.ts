// GraphQL subscriptions end to end, through a real graphql-ws client (graphql-transport-ws) over
// WebSocket: cachedObjectEvents delivers the changes of objects replicated from the embedded
// source. The slow-consumer case runs a second GraphQL server (the same plugin, over the same
// running app's read model, with a queue bound of 2) behind a TCP proxy that can stop
// forwarding, which is what a client that stops reading looks like to the server.

import { createServer, connect } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { Gauge, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlPlugin } from '../../../src/graphql/graphql-plugin.js';
import { SUBSCRIPTIONS_GAUGE } from '../../../src/metrics/metric-names.js';
import type { ReadWatch } from '../../../src/read/read-model.js';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { gaugeValue, record, wsClient } from './graphql-http.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';

const eventsOf = (name: string, fields = 'type object { metadata { name } object }') =>
  `subscription { cachedObjectEvents(filter: {schema: "${SCHEMA}", name: "${name}"}) { ${fields} } }`;

describe('GraphQL subscriptions (graphql-transport-ws)', () => {
  let app: TestApp;
  let instances: string;
  const subscriptions = () => gaugeValue(app.url, SUBSCRIPTIONS_GAUGE);

  beforeAll(async () => {
    app = await startTestApp();
    const root = app.clusterUrl('root');
    instances = `${root}/apis/machines.svm.io/v1alpha1/instances`;
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('instances', GVR))).status).toBe(201);
    await eventually(async () => expect((await app.app.read.clusterCachedResources()).length).toBe(1));
  });
  afterAll(async () => app?.stop());

  it('case 1: a client subscribed before an object is created receives its ADDED, MODIFIED and DELETED events', async () => {
    const client = wsClient(app.url);
    try {
      const events = record(client, eventsOf('web-server-13'));
      await eventually(async () => expect(await subscriptions()).toBe(1));
      await request('POST', instances, { metadata: { name: 'web-server-13', labels: { n: '13' } }, spec: { size: 13 } });
      await eventually(() => expect(events.results.map((r) => r.data?.['cachedObjectEvents'])).toMatchObject([
        { type: 'ADDED', object: { metadata: { name: `${SCHEMA}.web-server-13` }, object: { spec: { size: 13 } } } },
      ]));
      await request('PATCH', `${instances}/web-server-13`, { spec: { size: 14 } }, 'application/merge-patch+json');
      await request('DELETE', `${instances}/web-server-13`);
      await eventually(() => {
        const types = events.results.map((r) => (r.data?.['cachedObjectEvents'] as { type: string }).type);
        expect(types[0]).toBe('ADDED');
        expect(types.at(-1)).toBe('DELETED');
        expect(types.slice(1, -1).every((type) => type === 'MODIFIED')).toBe(true);
      });
      expect(events.errors).toBeUndefined();
      events.dispose();
      await eventually(async () => expect(await subscriptions()).toBe(0)); // its watch is stopped
    } finally {
      await client.dispose();
    }
  });

  it('case 2: invalid, too deep and failing subscriptions end with an error carrying extensions.code', async () => {
    const client = wsClient(app.url);
    try {
      const invalid = record(client, 'subscription { cachedObjectEvents { colour } }');
      const deep = record(client, eventsOf('x', 'object { owners { owners { owners { owners { owners { owners { owners { kind } } } } } } } }'));
      const badSelector = record(client, `subscription { cachedObjectEvents(filter: {schema: "${SCHEMA}", labelSelector: "n in (1"}) { type } }`);
      await eventually(() => {
        expect(invalid.errors).toMatchObject([{ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }]);
        expect(deep.errors).toMatchObject([{ extensions: { code: 'QUERY_TOO_DEEP' } }]);
        expect(badSelector.errors).toMatchObject([{ extensions: { code: 'BAD_REQUEST' } }]);
      });
      expect(await subscriptions()).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  describe('a dedicated GraphQL server with a queue bound of 2, behind a TCP proxy', () => {
    let server: FastifyInstance;
    let registry: Registry;
    let proxy: StallableProxy;
    const open = async (): Promise<number> => ((await (registry.getSingleMetric(SUBSCRIPTIONS_GAUGE) as Gauge).get()).values[0]?.value ?? 0);

    beforeAll(async () => {
      registry = new Registry();
      const subscriptionsGauge = new Gauge({ name: SUBSCRIPTIONS_GAUGE, help: 'open subscriptions', registers: [registry] });
      server = Fastify();
      await server.register(graphqlPlugin, { read: app.app.read, subscriptionsGauge, subscriptionQueue: 2, graphiql: false });
      proxy = await stallableProxy(await server.listen({ host: '127.0.0.1', port: 0 }));
    });
    afterAll(async () => {
      await proxy?.close();
      await server?.close();
    });

    it('case 3: a subscriber that stops reading is cut off with SLOW_CONSUMER; its undelivered events are dropped', async () => {
      await request('POST', instances, { metadata: { name: 'big' }, spec: { blob: 'x'.repeat(256 * 1024), generation: 0 } });
      let produced = 0;
      const counter: ReadWatch = await app.app.read.watchCachedObjects({ schema: SCHEMA, name: 'big' }, {}, () => produced++);
      const client = wsClient(proxy.url);
      try {
        const events = record(client, eventsOf('big'));
        await eventually(async () => expect(await open()).toBe(1));
        proxy.stall();
        for (let generation = 1; generation <= 400 && (await open()) > 0; generation++) {
          await request('PATCH', `${instances}/big`, { spec: { generation } }, 'application/merge-patch+json');
        }
        await eventually(async () => expect(await open()).toBe(0)); // cut off while the client was not reading
        proxy.resume();
        await eventually(() => expect(events.errors).toMatchObject([{ extensions: { code: 'SLOW_CONSUMER', limit: 2 } }]));
        expect(events.results.length).toBeGreaterThan(0);
        expect(events.results.length).toBeLessThan(produced); // the rest was dropped, not buffered
      } finally {
        counter.stop();
        await client.dispose();
      }
    });

    it('case 4: closing the server ends open subscriptions and stops their watches', async () => {
      const client = wsClient(proxy.url);
      try {
        const events = record(client, eventsOf('never-created'));
        await eventually(async () => expect(await open()).toBe(1));
        await server.close();
        expect(await open()).toBe(0);
        await eventually(() => expect(events.completed || events.errors !== undefined).toBe(true));
      } finally {
        await client.dispose();
      }
    });
  });
});

/** StallableProxy forwards TCP to a server; stall() stops reading the server's replies. */
interface StallableProxy {
  readonly url: string;
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

/** stallableProxy listens on a loopback port and forwards every connection to target. */
async function stallableProxy(target: string): Promise<StallableProxy> {
  const { hostname, port } = new URL(target);
  const upstreams = new Set<Socket>();
  const clients = new Set<Socket>();
  let stalled = false;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    upstreams.add(upstream);
    clients.add(client);
    if (stalled) upstream.pause();
    client.pipe(upstream);
    upstream.on('data', (chunk) => client.write(chunk));
    upstream.on('end', () => client.end());
    const destroy = () => {
      client.destroy();
      upstream.destroy();
      upstreams.delete(upstream);
      clients.delete(client);
    };
    client.on('close', destroy).on('error', destroy);
    upstream.on('close', destroy).on('error', destroy);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stall: () => {
      stalled = true;
      for (const upstream of upstreams) upstream.pause();
    },
    resume: () => {
      stalled = false;
      for (const upstream of upstreams) upstream.resume();
    },
    close: async () => {
      for (const socket of [...clients, ...upstreams]) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
