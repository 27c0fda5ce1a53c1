// Entry point: read the configuration, build the app, serve until SIGTERM or SIGINT.

import { readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import type { App } from './app.js';
import { keepReadPathCode } from './app/keep-read-path-code.js';
import { StorageOpenError } from './storage/storage-open-error.js';
import { ConfigError } from './config/config-error.js';
import { loadConfig } from './config/load-config.js';
import type { Config } from './config/config.js';

function readConfigOrExit(): Config {
  try {
    return loadConfig({ argv: process.argv.slice(2), env: process.env, readFile: (path) => readFileSync(path, 'utf8') });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`cachegate: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

/**
 * SHUTDOWN_DELAY_MS: after SIGTERM, readiness answers 503 while requests are still served this
 * long (each closing its keep-alive connection), so a load balancer or Service sees the pod leave
 * before its listener closes. Then controllers stop, the listener closes, in-flight requests
 * finish, watches end, and the process exits, well within 10 s.
 */
const SHUTDOWN_DELAY_MS = 2000;

// V8 keeps the code it compiled for the next start (in the OS temp directory; a cache that
// cannot be written is simply not used): a restart then spends about half a second less loading
// modules. Only code loaded after this call is cached, so the app is imported below, not above.
enableCompileCache();

// Set before the app is built: see keep-read-path-code.ts.
keepReadPathCode();

async function buildOrExit(config: Config): Promise<App> {
  try {
    const { buildApp } = await import('./app.js');
    return await buildApp(config);
  } catch (err) {
    // State that cannot be opened as configured must not become a silent empty start.
    if (err instanceof StorageOpenError) {
      process.stderr.write(`cachegate: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

const app = await buildOrExit(readConfigOrExit());
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.fastify.log.info({ signal }, 'shutting down');
    app.stop({ drainDelayMs: SHUTDOWN_DELAY_MS }).then(
      () => process.exit(0),
      (err: unknown) => {
        app.fastify.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
await app.start();
