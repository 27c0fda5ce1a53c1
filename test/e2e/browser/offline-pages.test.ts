// The service's pages in a real browser (chromium) that may reach nothing but the service, as on
// an air-gapped install: GraphiQL (/graphiql) and Swagger UI (/docs) must render from the
// service's own files, GraphiQL must run queries and subscriptions against /graphql, and with auth
// on its page must still load and send the token a user puts in its headers editor. Every case
// also checks that no request left the origin and that the page logged no error, and writes a
// screenshot to test-output/browser/.

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTIONS_GAUGE } from '../../../src/metrics/metric-names.js';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { SCHEMA, TOKENS, startAuthApp } from '../auth/auth-fixture.js';
import { run, waitForEditor, waitForResult, writeHeaders, writeQuery } from './graphiql-driver.js';
import { PAGE_TIMEOUT_MS, withGuardedPage, launchChromium, screenshot } from './guarded-browser.js';
import type { GuardedPage } from './guarded-browser.js';

const GVR = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const CASE_TIMEOUT_MS = 180_000;

/** withPage runs body on a guarded page of app (guarded-browser.ts). */
function withPage(browser: Browser, app: TestApp, body: (guarded: GuardedPage) => Promise<void>): Promise<void> {
  return withGuardedPage(browser, app.url, body);
}

/** openSubscriptions reads the server's count of open GraphQL subscriptions from /metrics. */
async function openSubscriptions(app: TestApp, token?: string): Promise<number> {
  const res = await fetch(`${app.url}/metrics`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${SUBSCRIPTIONS_GAUGE} `));
  if (line === undefined) throw new Error(`${SUBSCRIPTIONS_GAUGE} not in /metrics (HTTP ${res.status})`);
  return Number(line.slice(SUBSCRIPTIONS_GAUGE.length + 1));
}

/**
 * runSubscriptionToEvent runs a subscription to the CachedObject of a new Instance in GraphiQL,
 * creates the Instance once the server holds the subscription (events start at subscribing),
 * waits for its ADDED event in the result pane and stops the subscription.
 */
async function runSubscriptionToEvent(app: TestApp, guarded: GuardedPage, name: string, token?: string): Promise<void> {
  const { page } = guarded;
  await writeQuery(page, `subscription { cachedObjectEvents(filter: {schema: "${SCHEMA}", name: "${name}"}) { type object { metadata { name } } } }`);
  const socket = page.waitForEvent('websocket');
  await run(page);
  expect(new URL((await socket).url()).pathname).toBe('/graphql');
  await eventually(async () => expect(await openSubscriptions(app, token)).toBe(1), PAGE_TIMEOUT_MS, 100);
  await createInstance(app, name, token === undefined ? {} : { authorization: `Bearer ${token}` });
  expect(await waitForResult(page, `${SCHEMA}.${name}`)).toContain('"type": "ADDED"');
  await screenshot(page, token === undefined ? 'graphiql-subscription' : 'graphiql-auth-subscription');
  await run(page); // the same button stops it
  await eventually(async () => expect(await openSubscriptions(app, token)).toBe(0), PAGE_TIMEOUT_MS, 100);
}

/** createInstance creates an Instance in the embedded source's `root` cluster. */
async function createInstance(app: TestApp, name: string, headers: Record<string, string> = {}): Promise<void> {
  const res = await request('POST', `${app.clusterUrl('root')}/apis/${GVR.group}/${GVR.version}/instances`, { metadata: { name } }, 'application/json', headers);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, CASE_TIMEOUT_MS);
afterAll(async () => browser?.close());

describe('GraphiQL and Swagger UI served offline', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    const root = app.clusterUrl('root');
    expect((await request('POST', `${root}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd({ group: GVR.group, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
    expect((await request('POST', `${root}${CCRS}`, ccr('instances', GVR))).status).toBe(201);
    await createInstance(app, 'web-1');
    await eventually(async () => expect((await app.app.read.schemas()).map((s) => s.name)).toEqual([SCHEMA]), 30_000);
  }, CASE_TIMEOUT_MS);
  afterAll(async () => app?.stop());

  it('case 1: /graphiql renders its editor from the service\'s own files and runs a query against /graphql', async () => {
    await withPage(browser, app, async ({ page, origin, outside, consoleErrors }) => {
      expect((await page.goto(`${origin}/graphiql`))?.status()).toBe(200);
      await waitForEditor(page);
      await writeQuery(page, '{ schemas { name count } }');
      await run(page);
      const result = await waitForResult(page, SCHEMA);
      expect(result).toContain('"count": 1');
      await screenshot(page, 'graphiql');
      expect(outside).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  }, CASE_TIMEOUT_MS);

  it('case 2: a subscription run in GraphiQL receives events over a WebSocket to the same origin', async () => {
    await withPage(browser, app, async (guarded) => {
      await guarded.page.goto(`${guarded.origin}/graphiql`);
      await waitForEditor(guarded.page);
      await runSubscriptionToEvent(app, guarded, 'web-live');
      expect(guarded.outside).toEqual([]);
      expect(guarded.consoleErrors).toEqual([]);
    });
  }, CASE_TIMEOUT_MS);

  it('case 3: /docs renders and lists every operation of the OpenAPI document', async () => {
    const document = (await request('GET', `${app.url}/openapi.json`)).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).filter((key) => key !== 'parameters').map((method) => `${method.toUpperCase()} ${path}`));
    await withPage(browser, app, async ({ page, origin, outside, consoleErrors }) => {
      expect((await page.goto(`${origin}/docs`))?.status()).toBe(200);
      await page.locator('.opblock-summary-path[data-path="/v1/objects/{group}/{version}/{resource}/{name}"]').first().waitFor({ state: 'visible' });
      const shown: string[] = [];
      for (const summary of await page.locator('.opblock-summary').all()) {
        shown.push(`${await summary.locator('.opblock-summary-method').innerText()} ${await summary.locator('.opblock-summary-path').getAttribute('data-path')}`);
      }
      // An operation with two tags is listed under both.
      expect([...new Set(shown)].sort()).toEqual(documented.sort());
      await screenshot(page, 'docs');
      expect(outside).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  }, CASE_TIMEOUT_MS);
});

/** REFUSED_SCHEMA_LOAD is the console error of GraphiQL's schema request sent before a token was entered. */
const REFUSED_SCHEMA_LOAD = /^Failed to load resource: the server responded with a status of 401 \(Unauthorized\) \(http:\/\/[^/]+\/graphql\)$/;

describe('GraphiQL with auth on', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startAuthApp();
  }, CASE_TIMEOUT_MS);
  afterAll(async () => app?.stop());

  it('case 4: the page loads without a token; a query sent with the Authorization header from the headers editor is answered', async () => {
    await withPage(browser, app, async ({ page, origin, outside, consoleErrors }) => {
      expect((await page.goto(`${origin}/graphiql`))?.status()).toBe(200);
      await waitForEditor(page);
      // Without a token, loading the schema is refused, and GraphiQL says so.
      await waitForResult(page, 'UNAUTHENTICATED');
      await writeHeaders(page, `{"Authorization": "Bearer ${TOKENS.admin}"}`);
      await writeQuery(page, '{ schemas { name count } }');
      await run(page);
      const result = await waitForResult(page, SCHEMA);
      expect(result).toContain('"count": 2');
      await screenshot(page, 'graphiql-auth');
      expect(outside).toEqual([]);
      expect(consoleErrors.filter((error) => !REFUSED_SCHEMA_LOAD.test(error))).toEqual([]);
    });
  }, CASE_TIMEOUT_MS);

  it('case 5: a subscription sends the headers editor\'s token in connection_init and receives events', async () => {
    await withPage(browser, app, async (guarded) => {
      await guarded.page.goto(`${guarded.origin}/graphiql`);
      await waitForEditor(guarded.page);
      await writeHeaders(guarded.page, `{"Authorization": "Bearer ${TOKENS.admin}"}`);
      await runSubscriptionToEvent(app, guarded, 'web-live', TOKENS.admin);
      expect(guarded.outside).toEqual([]);
      expect(guarded.consoleErrors.filter((error) => !REFUSED_SCHEMA_LOAD.test(error))).toEqual([]);
    });
  }, CASE_TIMEOUT_MS);

  it('case 6: without a token, the page and its files are served, an unknown file is 404 and /graphql is refused', async () => {
    const page = await fetch(`${app.url}/graphiql`);
    expect(page.status).toBe(200);
    const files = [...(await page.text()).matchAll(/(?:src|href)="(graphiql\/[^"]+)"/g)].map((match) => match[1]);
    expect(files).toHaveLength(5);
    for (const file of files) expect((await fetch(`${app.url}/${file}`)).status, file).toBe(200);
    expect((await fetch(`${app.url}/graphiql/no-such-file.js`)).status).toBe(404);
    const slash = await fetch(`${app.url}/graphiql/`, { redirect: 'manual' });
    expect([slash.status, new URL(slash.headers.get('location') ?? '', `${app.url}/graphiql/`).pathname]).toEqual([302, '/graphiql']);
    expect((await fetch(`${app.url}/graphql?query=${encodeURIComponent('{ schemas { name } }')}`)).status).toBe(401);
  }, CASE_TIMEOUT_MS);
});
