// The REST facade's failures and empty answers on a fresh app: every error is a Kubernetes
// Status with the HTTP code of its reason; unknown query parameters are ignored.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../helpers/kube-http.js';
import { SseClient } from '../../e2e/facade-rest/sse-client.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

describe('REST facade errors and empty answers', () => {
  let app: TestApp;
  let v1: string;

  beforeAll(async () => {
    app = await startTestApp();
    v1 = `${app.url}/v1`;
  });
  afterAll(async () => app?.stop());

  it('case 1: an unknown path under /v1 is a 404 NotFound Status', async () => {
    const res = await request('GET', `${v1}/nothing/here`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
  });

  it('case 2: an object that is not cached is a 404 NotFound Status, for originals and CachedObjects', async () => {
    for (const path of ['/objects/core/v1/configmaps/absent?namespace=default', '/objects/machines.svm.io/v1alpha1/instances/absent?cluster=root', '/cachedobjects/v1.configmaps.core.default.absent']) {
      const res = await request('GET', `${v1}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
    }
  });

  it('case 3: a bad limit (not an integer, negative, empty) is a 400 BadRequest Status naming the field', async () => {
    for (const limit of ['abc', '-1', '1.5', '', '5&limit=6']) {
      const res = await request('GET', `${v1}/cachedobjects?limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
      expect(res.body.details.causes).toEqual([expect.objectContaining({ field: 'querystring.limit' })]);
    }
    expect((await request('GET', `${v1}/cachedobjects?limit=0`)).status).toBe(200);
  });

  it('case 4: empty string parameters count as not given', async () => {
    for (const query of ['watch=', 'continue=', 'cluster=&shard=&schema=&labelSelector=', 'watch=false', 'watch=0']) {
      const res = await request('GET', `${v1}/cachedobjects?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.kind).toBe('CachedObjectList');
    }
  });

  it('case 5: a malformed labelSelector is a 400 BadRequest Status even when nothing is cached', async () => {
    const res = await request('GET', `${v1}/cachedobjects?labelSelector=${encodeURIComponent('a in (b')}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(res.body.message).not.toBe('');
  });

  it('case 6: empty lists have their kinds, and unknown query parameters are ignored', async () => {
    const list = await request('GET', `${v1}/cachedobjects?unknown=1&another=x`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ kind: 'CachedObjectList', apiVersion: 'cache.kcp.io/v1alpha1', items: [] });
    expect(list.body.metadata.resourceVersion).toMatch(/^[0-9]+$/);
    expect(list.body.metadata.continue).toBeUndefined();
    expect((await request('GET', `${v1}/schemas?x=y`)).body).toEqual({ kind: 'SchemaList', items: [] });
    const objects = await request('GET', `${v1}/schemas/v1.configmaps.core/objects`);
    expect(objects.status).toBe(200);
    expect(objects.body).toMatchObject({ kind: 'ObjectList', items: [] });
    expect((await request('GET', `${v1}/clustercachedresources`)).body).toMatchObject({ kind: 'ClusterCachedResourceList', items: [] });
  });

  it('case 7: an event stream echoes x-request-id and starts with its head flushed', async () => {
    const client = await SseClient.open(`${v1}/cachedobjects?watch=true`, { 'x-request-id': 'sse-req-1' });
    try {
      expect(client.status).toBe(200);
      expect(client.headers['x-request-id']).toBe('sse-req-1');
      expect(client.headers['cache-control']).toMatch(/no-cache/);
    } finally {
      client.close();
    }
  });

  it('case 8: HEAD of a watch answers the head at once instead of holding a stream open', async () => {
    const res = await fetch(`${v1}/cachedobjects?watch=true`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  });

  it('case 9: JSON answers echo x-request-id too', async () => {
    const res = await fetch(`${v1}/schemas`, { headers: { 'x-request-id': 'req-2' } });
    expect(res.headers.get('x-request-id')).toBe('req-2');
  });
});
