// Load shedding with the real @fastify/under-pressure: a stalled event loop turns requests into
// 503 Status answers with Retry-After, while probes and /metrics are still answered.

import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerLoadShedding } from '../../../src/http/load-shedding.js';
import { DEADLINE_MS, eventually } from '../../helpers/kube-http.js';

function stallEventLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy: this is the stall under test
  }
}

describe('load shedding', () => {
  const app = Fastify();

  beforeAll(async () => {
    await registerLoadShedding(app, { maxEventLoopDelayMs: 20, retryAfterSeconds: 7, sampleIntervalMs: 25 });
    app.get('/v1/work', async () => ({ ok: true }));
    app.get('/livez', async () => 'ok');
    await app.ready();
  });
  afterAll(async () => app.close());

  it('case 1: while the loop stalls, requests get 503 ServiceUnavailable with Retry-After; /livez still answers', async () => {
    await eventually(async () => {
      stallEventLoop(200);
      await new Promise((resolve) => setImmediate(resolve));
      const shed = await app.inject({ method: 'GET', url: '/v1/work' });
      const live = await app.inject({ method: 'GET', url: '/livez' });
      expect(live.statusCode).toBe(200);
      expect(shed.statusCode).toBe(503);
      expect(shed.headers['retry-after']).toBe('7');
      expect(shed.json()).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', code: 503 });
    }, DEADLINE_MS, 0);
  });

  it('case 2: once the loop recovers, requests are served again', async () => {
    await eventually(async () => expect((await app.inject({ method: 'GET', url: '/v1/work' })).statusCode).toBe(200));
  });

  it('case 3: a stall while the app starts does not shed the first requests once it is ready', async () => {
    const starting = Fastify();
    await registerLoadShedding(starting, { maxEventLoopDelayMs: 20, retryAfterSeconds: 7, sampleIntervalMs: 25 });
    // A plugin that blocks while it loads, as loading a large state or compiling a schema does.
    await starting.register(async (scope) => {
      stallEventLoop(300);
      scope.get('/v1/work', async () => ({ ok: true }));
    });
    try {
      await starting.ready();
      // One turn of the loop's timers, as a server's first request waits for: the sampler runs
      // overdue right after the stall and reports it, which is what must not shed this request.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect((await starting.inject({ method: 'GET', url: '/v1/work' })).statusCode).toBe(200);
    } finally {
      await starting.close();
    }
  });
});
