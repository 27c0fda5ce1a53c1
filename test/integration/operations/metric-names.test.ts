// The README's metric table against a running app: every metric the app registers is listed, and
// every listed metric is registered. A name ending in `*` (prom-client's default process and
// Node.js metrics) stands for the names it starts, and must match at least one of them.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const README = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');

/** documentedMetrics are the names in the first column of the metric table of README's Operations section. */
function documentedMetrics(): string[] {
  const operations = README.split(/^## /m).find((section) => section.startsWith('Operations\n')) ?? '';
  const table = operations.split(/^### /m).find((section) => section.startsWith('Metrics\n')) ?? '';
  const firstCells = table.split('\n').filter((line) => line.startsWith('| `')).map((line) => line.split('|')[1] ?? '');
  return firstCells.flatMap((cell) => [...cell.matchAll(/`([a-z_:*]+)`/g)].map((m) => m[1] ?? ''));
}

/** registeredMetrics are the metric names /metrics declares (one `# TYPE` line each, series or not). */
async function registeredMetrics(app: TestApp): Promise<string[]> {
  const res = await fetch(`${app.url}/metrics`);
  expect(res.status).toBe(200);
  return [...(await res.text()).matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1] ?? '');
}

function matches(documented: string, name: string): boolean {
  return documented.endsWith('*') ? name.startsWith(documented.slice(0, -1)) : name === documented;
}

describe('the README lists the metrics the app registers', () => {
  let app: TestApp;
  let documented: string[];
  let registered: string[];

  beforeAll(async () => {
    // With the overlay on, so that its metrics are registered too.
    app = await startTestApp({ cache: { enabled: true, gvks: ['v1/ConfigMap'], ttl: '2m' } });
    documented = documentedMetrics();
    registered = await registeredMetrics(app);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('case 1: the README has a metric table and the app declares metrics', () => {
    expect(documented.length).toBeGreaterThan(10);
    expect(registered.length).toBeGreaterThan(10);
  });

  it('case 2: every metric the app registers is in the README', () => {
    const undocumented = registered.filter((name) => !documented.some((d) => matches(d, name)));
    expect(undocumented).toEqual([]);
  });

  it('case 3: every metric the README lists is registered by the app', () => {
    const unregistered = documented.filter((d) => !registered.some((name) => matches(d, name)));
    expect(unregistered).toEqual([]);
  });
});
