// /metrics exposes the process, HTTP and cachegate metrics of one app's own registry.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crd, eventually, request } from '../../helpers/kube-http.js';
import { CCRS, cachedObjects, ccr } from '../../helpers/replication.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

describe('/metrics', () => {
  let app: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
    second = await startTestApp();
    const root = app.clusterUrl('root');
    await request('POST', `${root}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd({ group: 'm.example.com', plural: 'things', kind: 'Thing' }));
    for (const name of ['a', 'b', 'c']) await request('POST', `${root}/apis/m.example.com/v1alpha1/things`, { metadata: { name } });
    await request('POST', `${root}${CCRS}`, ccr('things', { group: 'm.example.com', version: 'v1alpha1', resource: 'things' }));
    await eventually(async () => expect(await cachedObjects(app.url, '', 'embedded', 'root')).toHaveLength(3));
  });
  afterAll(async () => {
    await second?.stop();
    await app?.stop();
  });

  const scrape = async (target: TestApp): Promise<string> => {
    const res = await fetch(`${target.url}/metrics`);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };

  it.each([
    ['case 1: process metrics', /^process_cpu_user_seconds_total \d/m],
    ['case 2: Node metrics', /^nodejs_heap_size_total_bytes \d/m],
    ['case 3: HTTP request durations by method, route and status', /^http_request_duration_seconds_count\{method="POST",route="\/clusters\/:cluster\/apis\/:group\/:version\/\*",status_code="201"\} \d+/m],
    ['case 4: cached objects per schema and cluster', /^cachegate_cached_objects\{schema="v1alpha1\.things\.m\.example\.com",shard="embedded",cluster="root"\} 3$/m],
    ['case 5: replication lag', /^cachegate_replication_lag_seconds_count\{shard="embedded"\} [1-9]\d*$/m],
    ['case 6: open watch streams (the app watches its own embedded source)', /^cachegate_watch_clients\{api="embedded"\} [1-9]\d*$/m],
    ['case 7: work queues', /^cachegate_workqueue_adds_total\{name="clustercachedresources:embedded"\} [1-9]\d*$/m],
    ['case 8: informer restarts', /^# TYPE cachegate_informer_restarts_total counter$/m],
  ])('%s', async (_name, pattern) => {
    await eventually(async () => expect(await scrape(app)).toMatch(pattern));
  });

  it('case 9: a second app in the same process has its own registry', async () => {
    expect(await scrape(second)).not.toMatch(/cachegate_cached_objects\{schema="v1alpha1\.things/);
  });
});
