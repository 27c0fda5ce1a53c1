// The dashboard's routes over HTTP, without a browser: /ui (and /ui/) serve the page, the page
// names its bundle and stylesheets under /ui/assets/ with their content types and cache headers,
// an unknown asset is a 404 Status, `/` redirects to /ui, and with auth on the page and its files
// need no token while the APIs still do. A build folder that is missing gives a 503 Status
// saying how to build it, never a 500.
//   case 1: /ui serves the page, which names three assets that are served with their types, immutable
//   case 2: /ui/ serves the same page, its asset URLs resolving to the same files
//   case 3: an unknown asset is a 404 Status, another method on /ui a 405 Status
//   case 4: / redirects to /ui
//   case 5: with auth on, /, /ui and the assets are served without a token; /v1/schemas is 401
//   case 6: without a build, /ui is a 503 Status that says how to build it

import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uiRoutes, UI_BUILD_DIR } from '../../../src/http/ui-routes.js';
import { answerUnmatchedRoute } from '../../../src/http/unmatched-route.js';
import { buildUi } from '../../../scripts/build-ui.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { AUTH_CONFIG } from '../auth/auth-fixture.js';

const TYPES: Readonly<Record<string, string>> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

/** assetUrls are the URLs of the files a page names, resolved against the page's URL. */
function assetUrls(html: string, pageUrl: string): string[] {
  return [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => new URL(match[1] ?? '', pageUrl).href);
}

describe('the dashboard routes', () => {
  let app: TestApp;
  beforeAll(async () => {
    await buildUi();
    app = await startTestApp();
  });
  afterAll(async () => app?.stop());

  it('case 1: /ui serves the page, which names three assets that are served with their types, immutable', async () => {
    const page = await fetch(`${app.url}/ui`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const urls = assetUrls(await page.text(), `${app.url}/ui`);
    expect(urls.map((url) => new URL(url).pathname.replace(/-[0-9a-f]{16}\./, '.'))).toEqual(['/ui/assets/uplot.css', '/ui/assets/dashboard.css', '/ui/assets/dashboard.js']);
    for (const url of urls) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toBe(TYPES[url.split('.').at(-1) ?? '']);
      expect(res.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
      const file = new URL(url).pathname.replace('/ui/assets/', '').replace(/-[0-9a-f]{16}\./, '.');
      expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(`${UI_BUILD_DIR}${file}`)), url).toBe(true);
    }
  });

  it('case 2: /ui/ serves the same page, its asset URLs resolving to the same files', async () => {
    const withoutSlash = assetUrls(await (await fetch(`${app.url}/ui`)).text(), `${app.url}/ui`);
    const page = await fetch(`${app.url}/ui/`);
    expect(page.status).toBe(200);
    expect(assetUrls(await page.text(), `${app.url}/ui/`)).toEqual(withoutSlash);
  });

  it('case 3: an unknown asset is a 404 Status, another method on /ui a 405 Status', async () => {
    for (const path of ['/ui/assets/dashboard.js', '/ui/assets/no-such-file.css', '/ui/assets/..%2F..%2Fpackage.json']) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
    }
    const post = await fetch(`${app.url}/ui`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
  });

  it('case 4: / redirects to /ui', async () => {
    const res = await fetch(`${app.url}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location') ?? '', `${app.url}/`).pathname).toBe('/ui');
  });
});

describe('the dashboard routes with auth on', () => {
  let app: TestApp;
  beforeAll(async () => {
    await buildUi();
    app = await startTestApp({ auth: AUTH_CONFIG });
  });
  afterAll(async () => app?.stop());

  it('case 5: with auth on, /, /ui and the assets are served without a token; /v1/schemas is 401', async () => {
    expect((await fetch(`${app.url}/`, { redirect: 'manual' })).status).toBe(302);
    const page = await fetch(`${app.url}/ui`);
    expect(page.status).toBe(200);
    const urls = assetUrls(await page.text(), `${app.url}/ui`);
    expect(urls).toHaveLength(3);
    for (const url of urls) expect((await fetch(url)).status, url).toBe(200);
    expect((await fetch(`${app.url}/ui/`)).status).toBe(200);
    const api = await fetch(`${app.url}/v1/schemas`);
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized' });
  });
});

describe('the dashboard routes without a build', () => {
  it('case 6: without a build, /ui is a 503 Status that says how to build it', async () => {
    const server = Fastify();
    server.setNotFoundHandler(answerUnmatchedRoute);
    await server.register(uiRoutes, { buildDir: '/nonexistent/cachegate-ui-build' });
    try {
      const page = await server.inject({ method: 'GET', url: '/ui' });
      expect(page.statusCode).toBe(503);
      expect(page.json()).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', code: 503 });
      expect(page.json<{ message: string }>().message).toContain('npm run build');
      expect((await server.inject({ method: 'GET', url: '/ui/assets/dashboard.js' })).statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });
});
