// `cachegate_build_info{version, node}`: a constant 1 whose labels say what runs, the Prometheus
// way to join a version onto other series (`* on(instance) group_left(version) …`).

import { readFileSync } from 'node:fs';
import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { BUILD_INFO_METRIC } from './metric-names.js';

/**
 * PACKAGE_JSON is the package's manifest: two levels up from this module both in src/metrics/
 * (run by tsx) and in dist/metrics/ (the image copies package.json beside dist/).
 */
const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

/** packageVersion reads the version of package.json (once per app: createMetrics calls it). */
export function packageVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8'));
  const version = typeof manifest === 'object' && manifest !== null ? (manifest as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : 'unknown';
}

/** registerBuildInfo registers `cachegate_build_info` with the given version and this process's Node.js version. */
export function registerBuildInfo(registry: Registry, version: string): void {
  const info = new Gauge({
    name: BUILD_INFO_METRIC,
    help: 'Always 1; its labels say which cachegate version (package.json) runs on which Node.js version.',
    labelNames: ['version', 'node'] as const,
    registers: [registry],
  });
  info.set({ version, node: process.version }, 1);
}
