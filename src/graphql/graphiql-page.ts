// GraphiQL at /graphiql, served entirely by this service: the page, a few lines of start-up script
// and the prebuilt browser files of the graphiql (3.x UMD bundle and stylesheet), react and
// react-dom (18 UMD builds) npm packages. mercurius' own GraphiQL loads those from a public CDN,
// so an install without internet access showed a blank page.
//
// Asset names carry their package's version, so browsers may cache them for good; the page and
// its script are revalidated. URLs are relative to the page (`graphiql/…`, `graphql`), so the page
// also works behind a proxy that mounts the service under a path prefix.

import { createReadStream } from 'node:fs';
import type { ReadStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * GRAPHIQL_ROUTES are the page's routes. They serve only static files, no data (every query goes
 * to /graphql, with the token the user puts in GraphiQL's headers editor), so with auth on they
 * are served without a token: a browser cannot send one when it opens a page.
 */
export const GRAPHIQL_ROUTES: ReadonlySet<string> = new Set(['/graphiql', '/graphiql/:asset']);

/** Asset is one file the page loads: its content type, caching and body. */
interface Asset {
  readonly contentType: string;
  readonly cacheControl: string;
  readonly body: () => string | ReadStream;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** START_SCRIPT renders GraphiQL against the GraphQL endpoint next to the page, queries and subscriptions. */
const START_SCRIPT = `'use strict';
(function () {
  var url = new URL('graphql', window.location.href);
  var subscriptionUrl = new URL(url.href);
  subscriptionUrl.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  // Subscriptions send the headers editor's content as graphql-ws' connection_init payload, which
  // is where the server looks for the token of a WebSocket.
  var fetcher = GraphiQL.createFetcher({ url: url.href, subscriptionUrl: subscriptionUrl.href });
  var defaultQuery = [
    '# cachegate GraphQL. With auth on, open "Headers" below and enter',
    '#   {"Authorization": "Bearer <token>"}',
    '# then re-fetch the schema (the arrows in the sidebar) and run the query (Ctrl-Enter).',
    '{',
    '  schemas {',
    '    name',
    '    count',
    '  }',
    '}',
    '',
  ].join('\\n');
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, { fetcher: fetcher, defaultQuery: defaultQuery, isHeadersEditorEnabled: true }),
  );
})();
`;

/** graphiqlPage registers GET /graphiql and its assets. */
export async function graphiqlPage(app: FastifyInstance): Promise<void> {
  const assets = await pageAssets();
  const html = pageHtml([...assets.keys()]);
  app.get('/graphiql', async (_req, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', REVALIDATE).send(html));
  app.get<{ Params: { asset: string } }>('/graphiql/:asset', async (req, reply) => {
    // `/graphiql/` would resolve the page's relative URLs one folder too deep.
    if (req.params.asset === '') return reply.redirect('../graphiql');
    const asset = assets.get(req.params.asset);
    if (asset === undefined) return reply.callNotFound();
    return reply.type(asset.contentType).header('cache-control', asset.cacheControl).send(asset.body());
  });
}

/**
 * pageAssets maps each asset name to its file, in the order the page loads them (react before
 * react-dom before graphiql, which finds them as globals). A missing package fails the start.
 */
async function pageAssets(): Promise<ReadonlyMap<string, Asset>> {
  const react = await installedPackage('react');
  const reactDom = await installedPackage('react-dom');
  const graphiql = await installedPackage('graphiql');
  const files: Array<readonly [name: string, contentType: string, file: string]> = [
    [`graphiql-${graphiql.version}.min.css`, CSS, join(graphiql.dir, 'graphiql.min.css')],
    [`react-${react.version}.production.min.js`, JS, join(react.dir, 'umd/react.production.min.js')],
    [`react-dom-${reactDom.version}.production.min.js`, JS, join(reactDom.dir, 'umd/react-dom.production.min.js')],
    [`graphiql-${graphiql.version}.min.js`, JS, join(graphiql.dir, 'graphiql.min.js')],
  ];
  await Promise.all(files.map(([, , file]) => access(file)));
  const assets = new Map<string, Asset>(files.map(([name, contentType, file]) =>
    [name, { contentType, cacheControl: IMMUTABLE, body: () => createReadStream(file) }]));
  assets.set('start.js', { contentType: JS, cacheControl: REVALIDATE, body: () => START_SCRIPT });
  return assets;
}

/** installedPackage finds an installed npm package's folder and version. */
async function installedPackage(name: string): Promise<{ dir: string; version: string }> {
  const manifest = createRequire(import.meta.url).resolve(`${name}/package.json`);
  const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
  return { dir: dirname(manifest), version };
}

/** pageHtml is the page: the stylesheet in the head, the scripts in order at the end of the body. */
function pageHtml(assetNames: readonly string[]): string {
  const styles = assetNames.filter((name) => name.endsWith('.css')).map((name) => `<link rel="stylesheet" href="graphiql/${name}">`);
  const scripts = assetNames.filter((name) => name.endsWith('.js')).map((name) => `<script src="graphiql/${name}"></script>`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>cachegate GraphiQL</title>
<style>body { margin: 0; } #graphiql { height: 100vh; }</style>
${styles.join('\n')}
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
${scripts.join('\n')}
</body>
</html>
`;
}
