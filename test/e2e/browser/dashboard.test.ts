// The dashboard (/ui) in a real browser (chromium) that may reach nothing but the service: its
// views must show what the public APIs say, follow changes live without a reload, ask for a token
// when the APIs answer 401, fit a phone's width and work by keyboard alone. Every case also checks
// that no request left the origin and that the page logged no error (but the failed requests it
// provokes on purpose), and writes a screenshot of its view to test-output/browser/.
//   case 1: the overview's counts per schema and cluster equal /v1/schemas, with the CCRs and sources
//   case 2: objects created through the API afterwards show in the overview counts and in the event feed (newest first) without a reload
//   case 3: a set-based label selector finds exactly the right objects; a bad selector shows the API's error next to the box
//   case 4: the object browser pages with limit and continue
//   case 5: selecting an object shows its original as JSON and as YAML, the CachedObject's labels and annotations, and the read's source;
//           the same page listed again keeps the selection and its detail
//   case 6: at 375 px the page never scrolls sideways, and every view is reachable and usable by keyboard alone
//   case 7: with auth on, the page loads, asks for a token, shows the data with a valid one, and a later 401 brings the prompt back

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildUi } from '../../../scripts/build-ui.js';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { SCHEMA as AUTH_SCHEMA, TOKENS, startAuthApp } from '../auth/auth-fixture.js';
import { focusRing, listWith, listedObjects, pageWidths, scrollLeft, showView, shownCounts, tabTo, viewShown, waitForCount, waitForListed, waitForScrolled } from './dashboard-driver.js';
import { PAGE_TIMEOUT_MS, withGuardedPage, launchChromium, screenshot } from './guarded-browser.js';
import type { GuardedPage } from './guarded-browser.js';

const CASE_TIMEOUT_MS = 180_000;
const GROUP = 'machines.svm.io';
const INSTANCES = `v1alpha1.instances.${GROUP}`;
const CONFIGMAPS = 'v1.configmaps.core';
const SELECTOR = 'tier in (web,db),!canary';
const BAD_SELECTOR = 'tier in (web';

/** The instances of each cluster, by name, with their labels: the selector above matches web-1, db-1 and web-b. */
const SEEDED: Readonly<Record<string, Readonly<Record<string, Record<string, string>>>>> = {
  root: { 'web-1': { tier: 'web' }, 'db-1': { tier: 'db' }, 'cache-1': { tier: 'cache' }, 'web-canary': { tier: 'web', canary: 'true' }, 'plain-1': {} },
  'team-b': { 'web-b': { tier: 'web' }, 'db-b': { tier: 'db', canary: 'no' } },
};

/** A ConfigMap whose values need care in YAML (quotes, numbers, booleans, lines, colons). */
const SETTINGS = {
  apiVersion: 'v1', kind: 'ConfigMap',
  metadata: { name: 'settings-a', namespace: 'default', labels: { app: 'demo' }, annotations: { 'example.com/note': 'kept: as is' } },
  data: { multi: 'line one\nline two', yes: 'no', number: '42', empty: '', colon: 'a: b', hash: 'x #y', quote: 'say "hi"', 'key.with-dots': 'true' },
};

/**
 * EXPECTED_REFUSALS are console errors the browser logs for answers a case provokes on purpose
 * (a 400 for the bad selector, 401s before a token): the page itself logs nothing.
 */
const EXPECTED_REFUSALS = /^Failed to load resource: the server responded with a status of (400 \(Bad Request\)|401 \(Unauthorized\)) \(http:\/\/[^)]+\)$/;

/** withPage runs body on a guarded page of app (guarded-browser.ts). */
function withPage(browser: Browser, app: TestApp, body: (guarded: GuardedPage) => Promise<void>): Promise<void> {
  return withGuardedPage(browser, app.url, body);
}

/** expectClean checks that the page reached nothing outside the origin and logged no error (but the refusals allowed). */
function expectClean(guarded: GuardedPage, allowed?: RegExp): void {
  expect(guarded.outside).toEqual([]);
  expect(guarded.consoleErrors.filter((error) => allowed === undefined || !allowed.test(error))).toEqual([]);
}

/** CcrJson is a ClusterCachedResource as /v1/clustercachedresources gives it, the fields compared here. */
interface CcrJson {
  readonly metadata: { readonly name: string; readonly annotations: Record<string, string> };
  readonly status: { readonly phase: string; readonly identityHash: string; readonly resourceCounts: { readonly local: number; readonly cache: number } };
}

/** ChartWindow is the part of the page's window read to count the charts' points. */
interface ChartWindow {
  readonly document: { querySelectorAll(selector: string): Iterable<{ readonly dataset: { readonly points?: string } }> };
}

/** expectFits checks that the page is no wider than its window: nothing scrolls it sideways. */
async function expectFits(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await pageWidths(page);
  expect(innerWidth).toBe(375);
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** apiCounts reads /v1/schemas as `schema shard/cluster` → count, with 0 for each cluster a schema has no object in. */
async function apiCounts(app: TestApp, headers: Record<string, string> = {}): Promise<Record<string, number>> {
  const res = await request('GET', `${app.url}/v1/schemas`, undefined, 'application/json', headers);
  expect(res.status).toBe(200);
  const items = res.body.items as Array<{ name: string; clusters: Array<{ shard: string; cluster: string; count: number }> }>;
  const places = new Set(items.flatMap((schema) => schema.clusters.map((place) => `${place.shard}/${place.cluster}`)));
  const counts: Record<string, number> = {};
  for (const schema of items) for (const place of places) counts[`${schema.name} ${place}`] = schema.clusters.find((p) => `${p.shard}/${p.cluster}` === place)?.count ?? 0;
  return counts;
}

/** apiNames lists the original names the API gives for a schema and selector. */
async function apiNames(app: TestApp, schema: string, labelSelector?: string): Promise<string[]> {
  const query = new URLSearchParams({ schema, ...(labelSelector === undefined ? {} : { labelSelector }) });
  const res = await request('GET', `${app.url}/v1/cachedobjects?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.items as Array<{ spec: { raw: { metadata: { name: string } } } }>).map((item) => item.spec.raw.metadata.name).sort();
}

/** createThroughApi creates an Instance in `root` through the REST facade's write route. */
async function createThroughApi(app: TestApp, name: string): Promise<void> {
  const res = await request('POST', `${app.url}/v1/objects/${GROUP}/v1alpha1/instances?cluster=root`, { apiVersion: `${GROUP}/v1alpha1`, kind: 'Instance', metadata: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

let browser: Browser;
beforeAll(async () => {
  // The bundle is built from the current sources, as `npm test` (pretest) and `npm start` (prestart) build it.
  await buildUi();
  browser = await launchChromium();
}, CASE_TIMEOUT_MS);
afterAll(async () => browser?.close());

describe('the dashboard', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    for (const [cluster, instances] of Object.entries(SEEDED)) {
      const base = app.clusterUrl(cluster);
      expect((await request('POST', `${base}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd({ group: GROUP, plural: 'instances', kind: 'Instance' }))).status).toBe(201);
      expect((await request('POST', `${base}${CCRS}`, ccr('instances', { group: GROUP, version: 'v1alpha1', resource: 'instances' }))).status).toBe(201);
      for (const [name, labels] of Object.entries(instances)) {
        expect((await request('POST', `${base}/apis/${GROUP}/v1alpha1/instances`, { metadata: { name, labels }, spec: { cluster } })).status).toBe(201);
      }
    }
    const root = app.clusterUrl('root');
    expect((await request('POST', `${root}${CCRS}`, ccr('settings', { group: '', version: 'v1', resource: 'configmaps' }, { app: 'demo' }))).status).toBe(201);
    expect((await request('POST', `${root}/api/v1/namespaces/default/configmaps`, SETTINGS)).status).toBe(201);
    await eventually(async () => expect(await apiCounts(app)).toEqual({
      [`${INSTANCES} embedded/root`]: 5, [`${INSTANCES} embedded/team-b`]: 2, [`${CONFIGMAPS} embedded/root`]: 1, [`${CONFIGMAPS} embedded/team-b`]: 0,
    }));
  }, CASE_TIMEOUT_MS);
  afterAll(async () => app?.stop());

  it('case 1: the overview\'s counts per schema and cluster equal /v1/schemas, with the CCRs and sources', async () => {
    await withPage(browser, app, async (guarded) => {
      const { page, origin } = guarded;
      expect((await page.goto(`${origin}/ui`))?.status()).toBe(200);
      await viewShown(page, 'overview');
      const expected = await apiCounts(app);
      for (const [key, count] of Object.entries(expected)) {
        const [schema, place] = key.split(' ') as [string, string];
        const [shard, cluster] = place.split('/') as [string, string];
        await waitForCount(page, schema, shard, cluster, count);
      }
      expect(await shownCounts(page)).toEqual(expected);
      expect(await page.locator(`td[data-schema="${INSTANCES}"][data-total]`).innerText()).toBe('7');
      // Each CCR as the API reports it (phase, counts, identity hash), once the page has read it
      // after the status settled: the overview reads it again every few seconds.
      await eventually(async () => {
        const ccrs = (await request('GET', `${app.url}/v1/clustercachedresources`)).body.items as CcrJson[];
        expect(ccrs.map((item) => item.status.phase)).toEqual(['Ready', 'Ready', 'Ready']);
        for (const item of ccrs) {
          const row = page.locator('tr', { has: page.locator(`td[data-ccr="${item.metadata.name}"][data-where="embedded/${item.metadata.annotations['kcp.io/cluster']}"]`) });
          const shown = await Promise.all(['phase', 'local', 'cache', 'identity-hash'].map((field) => row.locator(`td[data-field="${field}"]`).innerText({ timeout: 1_000 })));
          expect(shown).toEqual([item.status.phase, String(item.status.resourceCounts.local), String(item.status.resourceCounts.cache), item.status.identityHash]);
        }
      }, PAGE_TIMEOUT_MS, 250);
      await page.locator('td[data-source="embedded"] + td[data-field="health"]', { hasText: 'healthy' }).waitFor();
      // Both charts are drawn (uPlot's canvas), sized to their boxes.
      await page.locator('.chart canvas').nth(1).waitFor();
      await screenshot(page, 'dashboard-overview');
      expectClean(guarded);
    });
  }, CASE_TIMEOUT_MS);

  it('case 2: objects created through the API afterwards show in the overview counts and in the event feed (newest first) without a reload', async () => {
    await withPage(browser, app, async (guarded) => {
      const { page, origin } = guarded;
      await page.goto(`${origin}/ui#/overview`);
      const before = await apiCounts(app);
      await waitForCount(page, INSTANCES, 'embedded', 'root', before[`${INSTANCES} embedded/root`] ?? -1);
      // A reload would lose this mark.
      await page.evaluate(() => ((globalThis as unknown as { dashboardMark: string }).dashboardMark = 'same page'));
      // The stream is registered before its head is sent: from "live" on, no change is missed.
      await page.locator('[data-feed-state="live"]').waitFor({ state: 'attached' });
      // Two scrapes of /metrics before the writes, so a later interval holds their replication.
      await page.locator('figure.chart[data-points]').first().waitFor({ state: 'attached' });
      // One at a time: replication runs in parallel, and the feed's order is the cache's.
      await createThroughApi(app, 'live-1');
      await page.locator('li.event[data-type="ADDED"][data-name="live-1"]').waitFor({ state: 'attached' });
      await createThroughApi(app, 'live-2');
      const rootCount = (before[`${INSTANCES} embedded/root`] ?? 0) + 2;
      await eventually(async () => expect((await apiCounts(app))[`${INSTANCES} embedded/root`]).toBe(rootCount));
      await waitForCount(page, INSTANCES, 'embedded', 'root', rootCount);
      // The lag chart has a point once a scrape of /metrics came after a replication, and the
      // request chart draws a line from three scrapes on: the README's picture.
      await page.locator('.chart-legend li', { hasText: /mean: \d/ }).waitFor();
      await page.waitForFunction(() => [...(globalThis as unknown as ChartWindow).document.querySelectorAll('figure.chart')].every((chart) => Number(chart.dataset.points) >= 3));
      // The page's own requests (several every few seconds) are counted: the rate is above zero.
      const requestRate = await page.locator('.chart-legend li', { hasText: /^all: / }).innerText();
      expect(Number(/^all: ([\d.]+)\/s$/.exec(requestRate)?.[1]), requestRate).toBeGreaterThan(0);
      // docs/images/ui-overview.png, the README's picture, is a copy of this screenshot.
      await screenshot(page, 'dashboard-overview-live');

      await showView(page, 'events');
      await page.locator('li.event[data-type="ADDED"][data-name="live-2"]').waitFor();
      await page.locator('li.event[data-type="ADDED"][data-name="live-1"]').waitFor();
      const order: string[] = [];
      for (const entry of await page.locator('li.event[data-type="ADDED"]').all()) order.push((await entry.getAttribute('data-name')) ?? '');
      expect(order.indexOf('live-2')).toBeLessThan(order.indexOf('live-1'));
      expect(await page.locator('li.event[data-name="live-1"]').innerText()).toContain(`${INSTANCES} in embedded/root`);
      expect(await page.evaluate(() => (globalThis as unknown as { dashboardMark?: string }).dashboardMark)).toBe('same page');
      await screenshot(page, 'dashboard-events');
      expectClean(guarded);
    });
  }, CASE_TIMEOUT_MS);

  it('case 3: a set-based label selector finds exactly the right objects; a bad selector shows the API\'s error next to the box', async () => {
    await withPage(browser, app, async (guarded) => {
      const { page, origin } = guarded;
      await page.goto(`${origin}/ui#/objects`);
      const matching = await apiNames(app, INSTANCES, SELECTOR);
      expect(matching).toEqual(['db-1', 'web-1', 'web-b']);
      await listWith(page, { schema: INSTANCES, selector: SELECTOR });
      await waitForListed(page, matching);
      // The same selector in one cluster.
      await listWith(page, { schema: INSTANCES, place: 'embedded/team-b', selector: SELECTOR });
      await waitForListed(page, ['web-b']);
      await screenshot(page, 'dashboard-objects-selector');

      const refused = await request('GET', `${app.url}/v1/cachedobjects?${new URLSearchParams({ schema: INSTANCES, labelSelector: BAD_SELECTOR })}`);
      expect(refused.status).toBe(400);
      await listWith(page, { schema: INSTANCES, selector: BAD_SELECTOR });
      const error = page.locator('#object-selector-error');
      await error.waitFor({ state: 'visible' });
      expect(await error.innerText()).toBe(refused.body.message);
      expect(await page.locator('#object-selector').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#object-selector').getAttribute('aria-describedby')).toContain('object-selector-error');
      await screenshot(page, 'dashboard-objects-bad-selector');
      // Fixing it clears the message.
      await listWith(page, { schema: INSTANCES, selector: 'tier=cache' });
      await waitForListed(page, ['cache-1']);
      await error.waitFor({ state: 'hidden' });
      expectClean(guarded, EXPECTED_REFUSALS);
    });
  }, CASE_TIMEOUT_MS);

  it('case 4: the object browser pages with limit and continue', async () => {
    await withPage(browser, app, async (guarded) => {
      const { page, origin } = guarded;
      await page.goto(`${origin}/ui#/objects`);
      const all = await apiNames(app, INSTANCES);
      expect(all.length).toBeGreaterThan(5);
      await listWith(page, { schema: INSTANCES, pageSize: '5' });
      const next = page.getByRole('button', { name: 'Next page' });
      const previous = page.getByRole('button', { name: 'Previous page' });
      await page.locator('.page-info', { hasText: /^Page 1 · \d+ more$/ }).waitFor();
      const first = await listedObjects(page);
      expect(first).toHaveLength(5);
      const seen = [...first];
      for (let pageNumber = 2; await next.isEnabled(); pageNumber++) {
        await next.click();
        await page.locator('.page-info', { hasText: new RegExp(`^Page ${pageNumber}\\b`) }).waitFor();
        seen.push(...await listedObjects(page));
      }
      expect(seen.sort()).toEqual(all);
      expect(await previous.isEnabled()).toBe(true);
      await previous.click();
      await page.locator('.page-info', { hasText: /^Page [0-9]+ · \d+ more$/ }).waitFor();
      await screenshot(page, 'dashboard-objects-paging');
      expectClean(guarded);
    });
  }, CASE_TIMEOUT_MS);

  it('case 5: selecting an object shows its original as JSON and as YAML, the CachedObject\'s labels and annotations, and the read\'s source; the same page listed again keeps the selection', async () => {
    await withPage(browser, app, async (guarded) => {
      const { page, origin } = guarded;
      await page.goto(`${origin}/ui#/objects`);
      const read = await request('GET', `${app.url}/v1/objects/core/v1/configmaps/settings-a?cluster=root&namespace=default`);
      expect([read.status, read.headers.get('x-cachegate-source')]).toEqual([200, 'cache']);
      await listWith(page, { schema: CONFIGMAPS });
      await waitForListed(page, ['settings-a']);
      await page.locator('button[data-object="settings-a"]').click();
      const source = page.locator('[data-field="source"]');
      await source.waitFor();
      expect(await source.innerText()).toBe('cache');
      expect(await page.locator('[data-field="etag"]').innerText()).toBe(`"${read.body.metadata.resourceVersion}"`);
      expect(await page.locator('button[data-object="settings-a"]').getAttribute('aria-pressed')).toBe('true');

      const original = page.locator('pre.original');
      expect(await original.getAttribute('data-format')).toBe('json');
      expect(JSON.parse(await original.innerText())).toEqual(read.body);
      await page.getByRole('button', { name: 'YAML' }).click();
      await page.locator('pre.original[data-format="yaml"]').waitFor();
      const yamlText = await original.innerText();
      expect(parseYaml(yamlText)).toEqual(read.body);
      expect(yamlText).toContain('  name: settings-a\n');

      const cached = (await request('GET', `${app.url}/v1/cachedobjects?schema=${CONFIGMAPS}`)).body.items[0] as { metadata: { labels: Record<string, string>; annotations: Record<string, string> } };
      for (const [kind, pairs] of [['labels', cached.metadata.labels], ['annotations', cached.metadata.annotations]] as const) {
        expect(Object.keys(pairs).length).toBeGreaterThan(3);
        for (const [key, value] of Object.entries(pairs)) {
          const row = page.locator(`[data-pairs="${kind}"] tr`, { has: page.locator(`td[data-key="${key}"]`) });
          expect(await row.locator('td.value').innerText(), `${kind} ${key}`).toBe(value);
        }
      }
      expect(cached.metadata.labels['cache.kcp.io/object-schema']).toBe(CONFIGMAPS);
      expect(cached.metadata.annotations['cache.kcp.io/original-resource-version']).toBe(read.body.metadata.resourceVersion);

      // The same list asked again (as a late answer to an earlier ask would be) renders new
      // buttons: the selected one comes back pressed and the detail stays.
      await page.locator('button[data-object="settings-a"]').evaluate((button) => button.setAttribute('data-stale', 'true'));
      await page.locator('#object-selector').press('Enter');
      await page.locator('button[data-object="settings-a"]:not([data-stale])').waitFor();
      expect(await page.locator('button[data-object="settings-a"]').getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator('[data-field="source"]').innerText()).toBe('cache');
      expect(parseYaml(await original.innerText())).toEqual(read.body);
      await screenshot(page, 'dashboard-object');
      expectClean(guarded);
    });
  }, CASE_TIMEOUT_MS);

  it('case 6: at 375 px the page never scrolls sideways, and every view is reachable and usable by keyboard alone', async () => {
    await withPage(browser, app, async (guarded) => {
      const { page, origin } = guarded;
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto(`${origin}/ui`);
      await waitForCount(page, CONFIGMAPS, 'embedded', 'root', 1);
      await page.locator('.chart canvas').first().waitFor();
      await expectFits(page);
      await screenshot(page, 'dashboard-phone-overview');

      // A wide table scrolls inside its own box, by keyboard too, and keeps its place and the
      // focus while the overview refreshes it (its "last successful sync" changes every refresh).
      // The refresh patches the table in place, so a scroll still animating from a key press
      // is not cut off: the box is the same element afterwards (a mark set on it survives).
      const sources = await tabTo(page, '.table-scroll[aria-label="Sources"]');
      await sources.evaluate((el) => Object.assign(el, { keptMark: true }));
      await page.keyboard.press('ArrowRight');
      const scrolled = await waitForScrolled(sources);
      const synced = await page.locator('td[data-source="embedded"] ~ td').nth(1).innerText();
      await page.locator('td[data-source="embedded"] ~ td').nth(1).filter({ hasNotText: synced }).waitFor();
      expect(await page.locator('.table-scroll[aria-label="Sources"]:focus').count()).toBe(1);
      expect(await scrollLeft(sources)).toBe(scrolled);
      expect(await sources.evaluate((el) => (el as unknown as { keptMark?: boolean }).keptMark)).toBe(true);

      // Back to the navigation: Shift+Tab to the event feed's link, Enter.
      const events = await tabTo(page, 'a[data-view-link="events"]', 'Shift+Tab');
      const ring = await focusRing(events);
      expect(ring.style).not.toBe('none');
      expect(ring.width).not.toBe('0px');
      await page.keyboard.press('Enter');
      await viewShown(page, 'events');
      await expectFits(page);

      // Back up to the navigation (the focus went to the view's heading), to the object browser.
      await tabTo(page, 'a[data-view-link="objects"]', 'Shift+Tab');
      await page.keyboard.press('Enter');
      await viewShown(page, 'objects');
      await page.locator('#object-schema option[value="v1.configmaps.core"]').waitFor({ state: 'attached' });
      // Choose the schema by keyboard: focus the select and type, as a keyboard user picks an option.
      await tabTo(page, '#object-schema');
      await page.keyboard.type('v1.c');
      await waitForListed(page, ['settings-a']);
      const item = await tabTo(page, 'button[data-object="settings-a"]');
      expect((await focusRing(item)).style).not.toBe('none');
      await page.keyboard.press('Space');
      await page.locator('[data-field="source"]', { hasText: 'cache' }).waitFor();
      const yaml = await tabTo(page, 'button[data-format="yaml"]');
      await yaml.press('Enter');
      await page.locator('pre.original[data-format="yaml"]').waitFor();
      await expectFits(page);
      await screenshot(page, 'dashboard-phone-object');

      await tabTo(page, 'a[data-view-link="overview"]', 'Shift+Tab', 200);
      await page.keyboard.press('Enter');
      await viewShown(page, 'overview');
      await expectFits(page);
      expectClean(guarded);
    });
  }, CASE_TIMEOUT_MS);
});

describe('the dashboard with auth on', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startAuthApp();
  }, CASE_TIMEOUT_MS);
  afterAll(async () => app?.stop());

  it('case 7: with auth on, the page loads, asks for a token, shows the data with a valid one, and a later 401 brings the prompt back', async () => {
    await withPage(browser, app, async (guarded) => {
      const { page, origin } = guarded;
      expect((await page.goto(`${origin}/ui`))?.status()).toBe(200);
      const prompt = page.locator('dialog.token-prompt[open]');
      await prompt.waitFor();
      // A wrong token is refused: the prompt comes back and says so.
      await page.getByLabel('Bearer token').fill(TOKENS.bad);
      await page.getByLabel('Bearer token').press('Enter');
      await page.locator('#token-note', { hasText: 'refused' }).waitFor();
      await prompt.waitFor();
      await screenshot(page, 'dashboard-auth-prompt');

      await page.getByLabel('Bearer token').fill(TOKENS.admin);
      await page.getByRole('button', { name: 'Use this token' }).click();
      await prompt.waitFor({ state: 'detached' });
      const expected = await apiCounts(app, { authorization: `Bearer ${TOKENS.admin}` });
      for (const cluster of ['root', 'team-b']) await waitForCount(page, AUTH_SCHEMA, 'embedded', cluster, expected[`${AUTH_SCHEMA} embedded/${cluster}`] ?? -1);
      expect(await shownCounts(page)).toEqual(expected);
      expect(await page.evaluate(() => (globalThis as unknown as { sessionStorage: { length: number } }).sessionStorage.length)).toBe(1);
      await page.locator('[data-feed-state="live"]').waitFor({ state: 'attached' });
      await screenshot(page, 'dashboard-auth');

      // The token stops working (as when it is removed from the server's config): the next refresh is refused.
      await page.evaluate((token) => {
        const storage = (globalThis as unknown as { sessionStorage: { key(i: number): string | null; setItem(k: string, v: string): void } }).sessionStorage;
        storage.setItem(storage.key(0) ?? '', token);
      }, TOKENS.bad);
      await prompt.waitFor();
      expect(await page.locator('#token-note').innerText()).toContain('refused');
      expect(await page.evaluate(() => (globalThis as unknown as { sessionStorage: { length: number } }).sessionStorage.length)).toBe(0);
      expectClean(guarded, EXPECTED_REFUSALS);
    });
  }, CASE_TIMEOUT_MS);
});
