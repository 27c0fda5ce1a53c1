// cachegate_storage_commit_seconds: with the local backend every commit (a transaction of grouped
// writes) is observed once, so a write through the kube API adds to the histogram's count; the
// memory backend commits nothing and the family has no series.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const COUNT_SERIES = /^cachegate_storage_commit_seconds_count\{backend="local"\} (\d+)$/m;

async function scrape(app: TestApp): Promise<string> {
  const res = await fetch(`${app.url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

async function commitCount(app: TestApp): Promise<number> {
  const match = COUNT_SERIES.exec(await scrape(app));
  return match === null ? 0 : Number(match[1]);
}

describe('cachegate_storage_commit_seconds', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cachegate-commit-metric-'));
  let local: TestApp;
  let memory: TestApp;

  beforeAll(async () => {
    local = await startTestApp({ store: { backend: 'local', dataDir, fsync: false } });
    memory = await startTestApp();
  });
  afterAll(async () => {
    await local?.stop();
    await memory?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('case 1: each write through the kube API is a commit of the local backend, observed in the histogram', async () => {
    const before = await commitCount(local);
    const configMaps = `${local.clusterUrl('root')}/api/v1/namespaces/default/configmaps`;
    for (let i = 0; i < 3; i++) {
      // Sequential, each answered only after its commit: three commits at least.
      expect((await request('POST', configMaps, { metadata: { name: `commit-${i}` }, data: { i: String(i) } })).status).toBe(201);
    }
    expect(await commitCount(local)).toBeGreaterThanOrEqual(before + 3);
    expect(await scrape(local)).toMatch(/^cachegate_storage_commit_seconds_bucket\{le="\+Inf",backend="local"\} \d+$/m);
  });

  it('case 2: the memory backend declares the family and has no series', async () => {
    const text = await scrape(memory);
    expect(text).toMatch(/^# TYPE cachegate_storage_commit_seconds histogram$/m);
    expect(text).not.toMatch(/^cachegate_storage_commit_seconds_count\{/m);
  });
});
