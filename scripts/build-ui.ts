// Builds the dashboard (src/ui/) into dist/ui/: esbuild bundles the browser code into
// dashboard.js and the stylesheet into dashboard.css, and uPlot's stylesheet is copied as
// uplot.css. `npm run build`, `prestart` and `pretest` run it, so the server (from src/ through
// tsx, or from dist/) finds the files and never needs esbuild itself.
//
// Several `npm start`s may run it at once (the replica tests start three), while servers read
// the folder: each file is written under a temporary name and renamed into place, so a reader
// sees a whole old file or a whole new one. Nothing is printed on success: `npm start --silent`
// must keep stdout to the server's JSON log lines.
//
// esbuild is tsx's dependency (tsx runs the server in development), found through tsx so the
// script does not rely on how npm laid out node_modules.

import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as EsbuildModule from 'esbuild';

type Esbuild = typeof EsbuildModule;

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** UI_OUT_DIR is where the built files go; src/http/ui-routes.ts reads them from there (its BUILT_FILES). */
export const UI_OUT_DIR = join(ROOT, 'dist', 'ui');

/** loadEsbuild loads the esbuild that tsx depends on. */
async function loadEsbuild(): Promise<Esbuild> {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  return (await import(pathToFileURL(fromTsx.resolve('esbuild')).href)) as Esbuild;
}

/** writeAtomically writes a file under a temporary name, then renames it into place. */
async function writeAtomically(path: string, contents: Uint8Array | string): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(temporary, contents);
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/** buildUi bundles the dashboard into UI_OUT_DIR; it throws with esbuild's messages on any error or warning. */
export async function buildUi(): Promise<void> {
  const esbuild = await loadEsbuild();
  const result = await esbuild.build({
    entryPoints: { dashboard: join(ROOT, 'src/ui/main.ts'), 'dashboard-style': join(ROOT, 'src/ui/dashboard.css') },
    outdir: UI_OUT_DIR,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    // In memory first: the files are written atomically below.
    write: false,
    logLevel: 'silent',
    tsconfig: join(ROOT, 'src/ui/tsconfig.json'),
  });
  // A warning (an import that resolves to nothing useful, a CSS mistake) is a defect: refuse it.
  if (result.warnings.length > 0) {
    const text = await esbuild.formatMessages(result.warnings, { kind: 'warning' });
    throw new Error(`the dashboard build has warnings:\n${text.join('\n')}`);
  }
  const outputs = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  const js = outputs.get(join(UI_OUT_DIR, 'dashboard.js'));
  const css = outputs.get(join(UI_OUT_DIR, 'dashboard-style.css'));
  if (js === undefined || css === undefined) throw new Error(`unexpected esbuild outputs: ${[...outputs.keys()].join(', ')}`);
  const uplotCss = await readFile(createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css'));
  await mkdir(UI_OUT_DIR, { recursive: true });
  await Promise.all([
    writeAtomically(join(UI_OUT_DIR, 'dashboard.js'), js),
    writeAtomically(join(UI_OUT_DIR, 'dashboard.css'), css),
    writeAtomically(join(UI_OUT_DIR, 'uplot.css'), uplotCss),
  ]);
}

/** isMain tells whether this file is the script node was started with (not imported by a test). */
function isMain(): boolean {
  const script = process.argv[1];
  return script !== undefined && resolve(script) === fileURLToPath(import.meta.url);
}

if (isMain()) {
  buildUi().catch((err: unknown) => {
    // esbuild's build failure carries its formatted errors in the message.
    console.error(`build-ui: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
