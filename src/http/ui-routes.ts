// The dashboard at /ui: the page, and at /ui/assets/ the browser bundle, its stylesheet and
// uPlot's, all from this service (no CDN). The files are built beforehand by
// scripts/build-ui.ts into dist/ui/ (`npm run build`, and before `npm start` and `npm test`), so
// the server never runs esbuild; the folder is found from the project root, two levels above
// this file whether it runs from src/http/ (tsx) or dist/http/ (compiled).
//
// The files are read once and held in memory. Their URLs carry a hash of their content, so
// browsers may keep them for good, while the page is revalidated on every load and so always
// names the current ones. The page holds no data (every view reads the public APIs, with the
// token the user enters), so with auth on it is served without a token, as GraphiQL's is.
// Not built yet: /ui answers 503 with a Status saying how to build it; the rest of the service
// is unaffected.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendStatus } from '../apimachinery/status.js';
import { AppError } from '../errors.js';

/** UI_ROUTES are the dashboard's routes, served without a token (`/` only redirects to /ui). */
export const UI_ROUTES: ReadonlySet<string> = new Set(['/', '/ui', '/ui/', '/ui/assets/:asset']);

/** UI_BUILD_DIR is where scripts/build-ui.ts writes the built files. */
export const UI_BUILD_DIR = fileURLToPath(new URL('../../dist/ui/', import.meta.url));

/** UiRoutesOptions may point at another build folder (default UI_BUILD_DIR). */
export interface UiRoutesOptions {
  readonly buildDir?: string;
}

/** BUILT_FILES are the files of a build, in the order the page loads them, and their types. */
const BUILT_FILES: ReadonlyArray<readonly [file: string, contentType: string]> = [
  ['uplot.css', 'text/css; charset=utf-8'],
  ['dashboard.css', 'text/css; charset=utf-8'],
  ['dashboard.js', 'text/javascript; charset=utf-8'],
];

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * PAGE_POLICY lets the page load and reach nothing but this origin: a script or a font from
 * elsewhere would be refused by the browser even if one were ever added by mistake. uPlot sizes
 * its elements through the DOM's style properties, which style-src does not restrict.
 */
const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Asset is one built file as served: its URL name (with the content's hash), type and bytes. */
interface Asset {
  readonly name: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** Bundle is a loaded build, or why there is none. */
type Bundle = { readonly assets: readonly Asset[] } | { readonly missing: string };

/** uiRoutes registers `/` (a redirect), `/ui`, `/ui/` and `/ui/assets/:asset`. */
export async function uiRoutes(app: FastifyInstance, opts: UiRoutesOptions): Promise<void> {
  const buildDir = opts.buildDir ?? UI_BUILD_DIR;
  // Loaded at start; a build that was missing then is looked for again on each request until found.
  let bundle = await loadBundle(buildDir);
  const current = async (): Promise<Bundle> => ('missing' in bundle ? (bundle = await loadBundle(buildDir)) : bundle);

  // Relative, so it also works behind a proxy that mounts the service under a path.
  app.get('/', async (_req, reply) => reply.header('cache-control', REVALIDATE).redirect('ui'));
  const page = (assetsPath: string) => async (_req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const loaded = await current();
    if ('missing' in loaded) return sendStatus(reply, new AppError('ServiceUnavailable', loaded.missing));
    return reply.type('text/html; charset=utf-8').headers({
      'cache-control': REVALIDATE, 'content-security-policy': PAGE_POLICY, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer',
    }).send(pageHtml(loaded.assets, assetsPath));
  };
  // Asset URLs are relative to the page: `ui/assets/…` from /ui, `assets/…` from /ui/.
  app.get('/ui', page('ui/assets/'));
  app.get('/ui/', page('assets/'));
  app.get<{ Params: { asset: string } }>('/ui/assets/:asset', async (req, reply) => {
    const loaded = await current();
    const asset = 'missing' in loaded ? undefined : loaded.assets.find((candidate) => candidate.name === req.params.asset);
    if (asset === undefined) return reply.callNotFound();
    return reply.type(asset.contentType).headers({ 'cache-control': IMMUTABLE, 'x-content-type-options': 'nosniff' }).send(asset.body);
  });
}

/** loadBundle reads a build's files and names each after its content. */
async function loadBundle(buildDir: string): Promise<Bundle> {
  try {
    const assets = await Promise.all(BUILT_FILES.map(async ([file, contentType]) => {
      const body = await readFile(`${buildDir}/${file}`);
      const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
      const dot = file.lastIndexOf('.');
      return { name: `${file.slice(0, dot)}-${hash}${file.slice(dot)}`, contentType, body };
    }));
    return { assets };
  } catch (err) {
    const why = err instanceof Error && 'code' in err ? String(err.code) : String(err);
    return { missing: `the dashboard is not built (${why} reading its files): run \`npm run build:ui\`, or \`npm run build\`` };
  }
}

/** pageHtml is the page: the stylesheets in the head, the script as a module (it runs once the page is parsed). */
function pageHtml(assets: readonly Asset[], assetsPath: string): string {
  const styles = assets.filter((asset) => asset.name.endsWith('.css')).map((asset) => `<link rel="stylesheet" href="${assetsPath}${asset.name}">`);
  const scripts = assets.filter((asset) => asset.name.endsWith('.js')).map((asset) => `<script type="module" src="${assetsPath}${asset.name}"></script>`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>cachegate</title>
${styles.join('\n')}
${scripts.join('\n')}
</head>
<body>
<div id="app"><p>Loading the cachegate dashboard…</p></div>
<noscript>The cachegate dashboard needs JavaScript. The same data is in the REST API: /docs lists it.</noscript>
</body>
</html>
`;
}
