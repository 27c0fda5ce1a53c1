// /metrics against Prometheus' own checker and against what dashboards and alerts read. The app
// is made to produce every metric family at least once (a ClusterCachedResource replicating
// objects, an SSE stream and a GraphQL subscription receiving their events, GraphQL queries that
// fail), then one scrape must pass `promtool check metrics` with nothing to say, and the values
// users rely on must hold.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { SseClient } from '../facade-rest/sse-client.js';
import { gql, record, wsClient } from '../graphql/graphql-http.js';
import type { Recorded } from '../graphql/graphql-http.js';
import { familiesOf, promtool, valuesOf } from './prometheus-text.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'gauges.example.com', version: 'v1alpha1', resource: 'meters' };
const SCHEMA = 'v1alpha1.meters.gauges.example.com';
const SEEDED = 3;
const PACKAGE = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as { version: string };

/** NEW_FAMILIES are the metric families this suite makes the app produce, each with at least one series. */
const NEW_FAMILIES = [
  'cachegate_build_info', 'cachegate_source_up', 'cachegate_source_last_sync_timestamp_seconds', 'cachegate_ccr_phase',
  'cachegate_ccr_objects', 'cachegate_sse_events_total', 'cachegate_graphql_subscription_events_total',
  'cachegate_graphql_operations_total', 'cachegate_graphql_errors_total', 'cachegate_ready',
];

describe('/metrics passes promtool and says what users rely on', () => {
  let app: TestApp;
  let meters: string;
  let sse: SseClient;
  let subscription: Recorded;
  let client: ReturnType<typeof wsClient>;
  const startedSeconds = Date.now() / 1000;
  const scrape = async (): Promise<string> => (await fetch(`${app.url}/metrics`)).text();
  const value = async (name: string, labels: Record<string, string> = {}): Promise<number> => valuesOf(await scrape(), name, labels)[0] ?? Number.NaN;
  const create = async (name: string): Promise<void> => {
    expect((await request('POST', meters, { metadata: { name }, spec: { reading: name } })).status).toBe(201);
  };

  beforeAll(async () => {
    app = await startTestApp();
    const root = app.clusterUrl('root');
    meters = `${root}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`;
    expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Meter' }))).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('meters', GVR))).status).toBe(201);
    await eventually(async () => expect(await value('cachegate_ccr_phase', { ccr: 'meters', phase: 'Ready' })).toBe(1));
    sse = await SseClient.open(`${app.url}/v1/cachedobjects?watch=true&schema=${SCHEMA}`);
    client = wsClient(app.url);
    subscription = record(client, `subscription { cachedObjectEvents(filter: {schema: "${SCHEMA}"}) { type } }`);
    await eventually(async () => expect(await value('cachegate_graphql_subscriptions')).toBe(1));
    for (let i = 1; i <= SEEDED; i++) await create(`seed-${i}`);
    await eventually(() => expect(subscription.results).toHaveLength(SEEDED));
    await sse.waitFor(() => sse.body.split('\nevent: ADDED\n').length > SEEDED);
    expect((await gql(app.url, '{ noSuchField }')).status).toBe(400);
  });
  afterAll(async () => {
    subscription?.dispose();
    await client?.dispose();
    sse?.close();
    await app?.stop();
  });

  it('case 1: promtool check metrics accepts a scrape holding every new family, and prints nothing', async () => {
    const text = await scrape();
    const families = familiesOf(text);
    for (const family of NEW_FAMILIES) {
      expect(families.has(family), family).toBe(true);
      expect(valuesOf(text, family).length, `${family} has a series`).toBeGreaterThan(0);
    }
    const checked = await promtool(['check', 'metrics'], text);
    expect(checked.output.split('\n').filter((line) => line.trim() !== '')).toEqual([]);
    expect(checked.code).toBe(0);
  });

  it('case 2: the default Node.js metrics stay, without the gauges named like counters', async () => {
    const families = familiesOf(await scrape());
    expect(families.get('nodejs_active_handles')).toBe('gauge');
    expect(families.get('nodejs_eventloop_lag_p99_seconds')).toBe('gauge');
    expect(families.get('process_cpu_user_seconds_total')).toBe('counter');
    expect([...families].filter(([name, type]) => name.endsWith('_total') && type !== 'counter')).toEqual([]);
  });

  it('case 3: cachegate_build_info is 1, labelled with the package version and the Node.js version', async () => {
    expect(await value('cachegate_build_info', { version: PACKAGE.version, node: process.version })).toBe(1);
  });

  it('case 4: the embedded source is up, last seen connected at this scrape, and the app is ready', async () => {
    const text = await scrape();
    expect(valuesOf(text, 'cachegate_source_up', { source: 'embedded' })).toEqual([1]);
    const [lastSync = 0] = valuesOf(text, 'cachegate_source_last_sync_timestamp_seconds', { source: 'embedded' });
    expect(lastSync).toBeGreaterThanOrEqual(Math.floor(startedSeconds));
    expect(lastSync).toBeLessThanOrEqual(Date.now() / 1000);
    expect(valuesOf(text, 'cachegate_ready')).toEqual([1]);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
  });

  it('case 5: a synced CCR is in phase Ready (1) and in no other phase (0)', async () => {
    const text = await scrape();
    const labels = { source: 'embedded', cluster: 'root', ccr: 'meters' };
    expect(valuesOf(text, 'cachegate_ccr_phase', { ...labels, phase: 'Ready' })).toEqual([1]);
    for (const phase of ['Initializing', 'Deleting', 'Deleted']) expect(valuesOf(text, 'cachegate_ccr_phase', { ...labels, phase })).toEqual([0]);
  });

  it('case 6: a CCR counts its objects in the source (local) and in the cache', async () => {
    const labels = { source: 'embedded', cluster: 'root', ccr: 'meters' };
    await eventually(async () => {
      const text = await scrape();
      expect(valuesOf(text, 'cachegate_ccr_objects', { ...labels, where: 'local' })).toEqual([SEEDED]);
      expect(valuesOf(text, 'cachegate_ccr_objects', { ...labels, where: 'cache' })).toEqual([SEEDED]);
    });
  });

  it('case 7: the subscription event counter grows when an object is created', async () => {
    const before = await value('cachegate_graphql_subscription_events_total');
    expect(before).toBeGreaterThanOrEqual(SEEDED);
    await create('after-subscription');
    await eventually(async () => expect(await value('cachegate_graphql_subscription_events_total')).toBeGreaterThan(before));
  });

  it('case 8: the SSE event counter grows when an object is created', async () => {
    const before = await value('cachegate_sse_events_total');
    expect(before).toBeGreaterThanOrEqual(SEEDED);
    await create('after-sse');
    await eventually(async () => expect(await value('cachegate_sse_events_total')).toBeGreaterThan(before));
  });

  it('case 9: GraphQL operations are counted by type', async () => {
    const before = await value('cachegate_graphql_operations_total', { type: 'query' });
    expect(await value('cachegate_graphql_operations_total', { type: 'subscription' })).toBeGreaterThanOrEqual(1);
    expect((await gql(app.url, '{ schemas { name } }')).status).toBe(200);
    await eventually(async () => expect(await value('cachegate_graphql_operations_total', { type: 'query' })).toBe(before + 1));
  });

  it('case 10: GraphQL errors are counted once each, by extensions.code, over HTTP and WebSocket', async () => {
    const count = (code: string): Promise<number> => value('cachegate_graphql_errors_total', { code }).then((v) => (Number.isNaN(v) ? 0 : v));
    const invalid = await count('GRAPHQL_VALIDATION_FAILED');
    const unparsable = await count('GRAPHQL_PARSE_FAILED');
    const answer = await gql(app.url, '{ noSuchField otherMissingField }');
    expect(answer.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED']);
    expect((await gql(app.url, '{ schemas { name }')).status).toBe(400);
    // Refused before mercurius parses it: a query that is JSON, not GraphQL.
    expect((await gql(app.url, '[]')).body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    await eventually(async () => {
      expect(await count('GRAPHQL_VALIDATION_FAILED')).toBe(invalid + 2);
      expect(await count('GRAPHQL_PARSE_FAILED')).toBe(unparsable + 2);
    });
    const refused = record(client, 'subscription { cachedObjectEvents { noSuchField } }');
    await eventually(() => expect(refused.errors).toBeDefined());
    await eventually(async () => expect(await count('GRAPHQL_VALIDATION_FAILED')).toBe(invalid + 3));
  });
});
