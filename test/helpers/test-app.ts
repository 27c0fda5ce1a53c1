// Starts a real cachegate on a loopback port for a test, and stops it afterwards.
// Usage: `await using app = await startTestApp();` or call `app.stop()` in afterAll.

import pino from 'pino';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/app.js';
import type { Config } from '../../src/config/config.js';
import { loadConfig } from '../../src/config/load-config.js';

/** TestApp is a started app plus its base URL. */
export interface TestApp extends AsyncDisposable {
  readonly app: App;
  /** url is the base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** clusterUrl is the embedded source's base URL for one logical cluster. */
  clusterUrl(cluster?: string): string;
  stop(): Promise<void>;
}

/**
 * testConfig builds a validated config from a config-file-shaped object, on a free port. The
 * stores are in memory unless the fields name a backend: the tests of durable state say so.
 * Load shedding is off unless the fields set `limits.maxEventLoopDelayMs`: on a loaded two-core
 * test machine one large body or write can stall the event loop past the production threshold
 * (1 s), and a test's next requests would be shed with 503 instead of showing what they check.
 * The tests of shedding turn it on.
 */
export function testConfig(fields: Record<string, unknown> = {}): Config {
  const store = { backend: 'memory', ...(fields['store'] as Record<string, unknown> | undefined) };
  const limits = { maxEventLoopDelayMs: 0, ...(fields['limits'] as Record<string, unknown> | undefined) };
  const text = JSON.stringify({ port: 0, logLevel: 'silent', ...fields, store, limits });
  return loadConfig({ argv: ['--config', 'test.json'], env: {}, readFile: () => text });
}

/** startTestApp builds and starts an app with a silent logger. */
export async function startTestApp(fields: Record<string, unknown> = {}): Promise<TestApp> {
  const app = await buildApp(testConfig(fields), { logger: pino({ level: 'silent' }) });
  const url = await app.start();
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await app.stop();
  };
  return {
    app,
    url,
    clusterUrl: (cluster = 'root') => `${url}/clusters/${cluster}`,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** readyz reads an app's verbose readiness: its status code and the per-check text. */
export async function readyz(app: TestApp): Promise<{ status: number; text: string }> {
  const res = await fetch(`${app.url}/readyz?verbose`);
  return { status: res.status, text: await res.text() };
}
