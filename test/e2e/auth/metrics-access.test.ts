// /metrics with `auth.metrics: protected`: its series name every logical cluster and count its
// objects, so only a token that reads every cluster may scrape; a cluster-limited token gets a
// 403 Status and learns nothing about other clusters.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/test-app.js';
import { TOKENS, call, startAuthApp } from './auth-fixture.js';

describe('/metrics with auth.metrics: protected', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startAuthApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it.each([
    ['case 1: a token of every cluster', TOKENS.admin],
    ['case 2: a read-only token of every cluster', TOKENS.readOnly],
  ])('%s scrapes every cluster\'s series', async (_name, token) => {
    const res = await call('GET', `${app.url}/metrics`, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/^cachegate_cached_objects\{[^}]*cluster="team-b"\} 1$/m);
  });

  it('case 3: a token limited to some clusters gets 403 Forbidden as a Status, naming no other cluster', async () => {
    const res = await call('GET', `${app.url}/metrics`, TOKENS.rootOnly);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(JSON.stringify(res.body)).not.toContain('team-b');
  });
});
