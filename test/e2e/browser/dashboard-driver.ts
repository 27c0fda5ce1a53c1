// Drives the dashboard (/ui) as a user does, by mouse or by keyboard, and reads what it shows.
// Every wait is for a condition on the page (playwright's auto-waiting locators, bounded by
// PAGE_TIMEOUT_MS), never for a time.

import type { Locator, Page } from 'playwright-core';

/** BrowserWindow is the part of the page's window read here (the tests compile without the DOM types). */
interface BrowserWindow {
  readonly innerWidth: number;
  readonly document: { readonly documentElement: { readonly scrollWidth: number } };
  getComputedStyle(element: unknown): { readonly outlineStyle: string; readonly outlineWidth: string };
}

/** showView clicks a view's link in the navigation and waits until the view is shown. */
export async function showView(page: Page, view: 'overview' | 'events' | 'objects'): Promise<void> {
  await page.locator(`a[data-view-link="${view}"]`).click();
  await viewShown(page, view);
}

/** viewShown waits until a view is the one shown. */
export async function viewShown(page: Page, view: string): Promise<void> {
  await page.locator(`section[data-view="${view}"]`).waitFor({ state: 'visible' });
}

/** waitForCount waits until the overview shows a count for one schema in one cluster. */
export async function waitForCount(page: Page, schema: string, shard: string, cluster: string, count: number): Promise<void> {
  await page.locator(`td[data-schema="${schema}"][data-shard="${shard}"][data-cluster="${cluster}"][data-count="${count}"]`).waitFor({ state: 'attached' });
}

/** shownCounts reads every count cell of the overview: `schema shard/cluster` → count. */
export async function shownCounts(page: Page): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const cell of await page.locator('td[data-count]').all()) {
    const [schema, shard, cluster, text] = await Promise.all(['data-schema', 'data-shard', 'data-cluster'].map((name) => cell.getAttribute(name)).concat(cell.innerText()));
    counts[`${schema} ${shard}/${cluster}`] = Number(text);
  }
  return counts;
}

/** listedObjects reads the names in the object browser's current page, sorted. */
export async function listedObjects(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const button of await page.locator('.object-list button[data-object]').all()) names.push((await button.getAttribute('data-object')) ?? '');
  return names.sort();
}

/**
 * waitForListed waits until the object browser lists exactly these names (in any order): a list
 * that is still loading, or the previous one, does not count.
 */
export async function waitForListed(page: Page, names: readonly string[]): Promise<void> {
  const want = [...names].sort().join(',');
  try {
    await page.waitForFunction((expected) => {
      const buttons = (globalThis as unknown as ListWindow).document.querySelectorAll('.object-list button[data-object]');
      return [...buttons].map((button) => button.getAttribute('data-object') ?? '').sort().join(',') === expected;
    }, want);
  } catch (err) {
    throw new Error(`the object browser lists [${(await listedObjects(page)).join(',')}], not [${want}]`, { cause: err });
  }
}

/** ListWindow is the part of the page's window waitForListed reads. */
interface ListWindow {
  readonly document: { querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null }> };
}

/** listWith chooses a schema, a cluster (or '' for all) and a selector in the object browser, and lists. */
export async function listWith(page: Page, opts: { schema: string; place?: string; selector?: string; pageSize?: string }): Promise<void> {
  const schema = page.locator('#object-schema');
  await schema.locator(`option[value="${opts.schema}"]`).waitFor({ state: 'attached' });
  await schema.selectOption(opts.schema);
  await page.locator('#object-place').selectOption(opts.place ?? '');
  if (opts.pageSize !== undefined) await page.locator('#object-limit').selectOption(opts.pageSize);
  await page.locator('#object-selector').fill(opts.selector ?? '');
  await page.locator('#object-selector').press('Enter');
}

/** pageWidths are the page's scroll width and its window's width: the page scrolls sideways when the first is larger. */
export async function pageWidths(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => {
    const window = globalThis as unknown as BrowserWindow;
    return { scrollWidth: window.document.documentElement.scrollWidth, innerWidth: window.innerWidth };
  });
}

/**
 * tabTo presses Tab (or Shift+Tab) until the focused element matches selector, as a keyboard
 * user moves through the page, and returns it; it fails after `limit` presses.
 */
export async function tabTo(page: Page, selector: string, key: 'Tab' | 'Shift+Tab' = 'Tab', limit = 80): Promise<Locator> {
  const target = page.locator(`${selector}:focus`);
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press(key);
    if ((await target.count()) === 1) return target;
  }
  throw new Error(`${limit} presses of ${key} never focused ${selector}`);
}

/** focusRing is the outline the focused element draws: style and width. */
export async function focusRing(element: Locator): Promise<{ style: string; width: string }> {
  return element.evaluate((el) => {
    const style = (globalThis as unknown as BrowserWindow).getComputedStyle(el);
    return { style: style.outlineStyle, width: style.outlineWidth };
  });
}

/** scrollLeft is how far an element is scrolled sideways. */
export async function scrollLeft(element: Locator): Promise<number> {
  return element.evaluate((el: { scrollLeft: number }) => el.scrollLeft);
}

/** waitForScrolled waits until an element is scrolled sideways (keyboard scrolling is animated) and the scrolling has settled. */
export async function waitForScrolled(element: Locator): Promise<number> {
  const handle = await element.elementHandle();
  let last = -1;
  for (;;) {
    await element.page().waitForFunction(([el, before]) => (el as unknown as { scrollLeft: number }).scrollLeft > Math.max(before, 0), [handle, last] as const);
    const now = await scrollLeft(element);
    // Settled when a further animation frame leaves it where it is.
    await element.page().evaluate(() => new Promise((resolve) => (globalThis as unknown as { requestAnimationFrame(cb: () => void): void }).requestAnimationFrame(() => resolve(undefined))));
    if ((await scrollLeft(element)) === now) return now;
    last = now;
  }
}
