// stop() completes whatever clients hold open: connections that never sent a request, aborted
// streaming reads, and open watches (which are ended), while readiness turns false first.

import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../helpers/test-app.js';

describe('shutdown', () => {
  it('case 1: a connection that never sent a request does not hold stop() open', async () => {
    const app = await startTestApp();
    const { port } = new URL(app.url);
    const idle = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => idle.once('connect', resolve));
    const closed = new Promise((resolve) => idle.once('close', resolve));
    await app.stop();
    await closed;
  });

  it('case 2: an aborted streaming read followed by stop() completes, and open watches end', async () => {
    const app = await startTestApp();
    const controller = new AbortController();
    const sse = await fetch(`${app.url}/v1/cachedobjects?watch=true`, { signal: controller.signal });
    expect(sse.status).toBe(200);
    controller.abort();
    const watch = await fetch(`${app.clusterUrl()}/api/v1/namespaces?watch=true`);
    const watchBody = watch.text();
    await app.stop();
    expect(await watchBody).toContain('"ADDED"');
  });
});
