// A real browser for page tests: Debian's chromium (installed by scripts/ensure-test-tools.sh)
// driven by playwright-core, never a browser downloaded by playwright. Each page runs in a fresh
// context that lets requests reach only the app's origin: anything else is aborted and recorded,
// so a page that needs the internet fails its test as it would fail on an air-gapped install.

import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

/** CHROMIUM is Debian's chromium package's executable. */
const CHROMIUM = '/usr/bin/chromium';

/** SCREENSHOTS is the git-ignored folder the page tests write their screenshots to. */
export const SCREENSHOTS = fileURLToPath(new URL('../../../test-output/browser/', import.meta.url));

/**
 * HOST_NAME is the name the browser reaches the app by (mapped to 127.0.0.1): pages behave as on a
 * real host, where Swagger UI, for one, shows things it hides for localhost and 127.0.0.1, and the
 * page is not a secure context (plain http), as on many internal installs.
 */
const HOST_NAME = 'cachegate.test';

/** browserUrl is the app's URL as the browser reaches it, under HOST_NAME. */
export function browserUrl(appUrl: string): string {
  const url = new URL(appUrl);
  url.hostname = HOST_NAME;
  return url.origin;
}

/** PAGE_TIMEOUT_MS bounds every wait for the page: generous, for a loaded 2-core machine. */
export const PAGE_TIMEOUT_MS = 45_000;

/**
 * launchChromium starts a headless chromium. playwright gives each launch a fresh temporary
 * profile (--user-data-dir) and removes it on close; the flags keep chromium from calling home.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: PAGE_TIMEOUT_MS,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${HOST_NAME} 127.0.0.1`,
    ],
  });
}

/** GuardedPage is a page whose requests outside the origin are blocked, and what it tried or logged. */
export interface GuardedPage {
  readonly page: Page;
  /** origin is the app's origin as this page reaches it (see browserUrl). */
  readonly origin: string;
  /** outside are the URLs the page requested outside the origin (blocked), WebSockets included. */
  readonly outside: string[];
  /** consoleErrors are the console errors and uncaught exceptions of the page, with their URL. */
  readonly consoleErrors: string[];
  close(): Promise<void>;
}

/** guardedPage opens a page in a fresh context of browser that may only reach the app at appUrl. */
export async function guardedPage(browser: Browser, appUrl: string): Promise<GuardedPage> {
  const origin = browserUrl(appUrl);
  // Service workers are blocked so that every request of the page goes through the route below.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  context.setDefaultTimeout(PAGE_TIMEOUT_MS);
  const outside: string[] = [];
  const consoleErrors: string[] = [];
  const sameOrigin = (url: string): boolean => new URL(url).origin === origin;
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (sameOrigin(url)) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  // WebSockets do not pass through routes; their URL is checked here (the origin's host and port).
  page.on('websocket', (ws) => {
    const url = new URL(ws.url());
    if (`${url.protocol === 'wss:' ? 'https:' : 'http:'}//${url.host}` !== origin) outside.push(ws.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  return { page, origin, outside, consoleErrors, close: () => context.close() };
}

/** screenshot writes the whole page to SCREENSHOTS/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

/**
 * withGuardedPage runs body on a guarded page of the app at appUrl and closes it, whatever happens.
 * A wait that timed out says what the page tried to fetch elsewhere and logged, which is usually why.
 */
export async function withGuardedPage(browser: Browser, appUrl: string, body: (guarded: GuardedPage) => Promise<void>): Promise<void> {
  const guarded = await guardedPage(browser, appUrl);
  try {
    await body(guarded);
  } catch (err) {
    if (!(err instanceof Error) || err.name !== 'TimeoutError') throw err;
    throw new Error(`${err.message}\nblocked outside the origin: ${JSON.stringify(guarded.outside)}\nconsole errors: ${JSON.stringify(guarded.consoleErrors)}`, { cause: err });
  } finally {
    await guarded.close();
  }
}
