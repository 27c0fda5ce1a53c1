// A source that answers with errors, behind a TCP proxy that answers for it:
//   case 1: the source answers 500 from the start → readiness names it with the error, requests
//           are spaced by backoff (a generous bound on their count), CPU stays low; once it
//           answers again the cache catches up.
//   case 2: a synced source turns to 500s → still no hot loop; afterwards the cache is exact.
//   case 3: a 410 storm (every watch answered 410 Gone, as an HTTP status or as an ERROR event)
//           during writes → re-lists, spaced by backoff, lose no event: the cache equals the source.

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/kube-http.js';
import type { Fault } from '../../helpers/tcp-proxy.js';
import { expectCacheEqualsSource, startRig } from './fault-rig.js';
import { readyz } from '../../helpers/test-app.js';
import type { Rig } from './fault-rig.js';
import { mixedWrites } from './mixed-writes.js';

const WINDOW_MS = 6000;
/**
 * MAX_REQUESTS_IN_WINDOW: the local cachegate runs two informers (CCRs, things) and a CCR
 * controller; with backoff (200 ms doubling to 5 s) each retries a handful of times in 6 s. A
 * hot loop makes thousands of requests in that time.
 */
const MAX_REQUESTS_IN_WINDOW = 120;

/** observe counts the requests reaching the proxy and the CPU this process spends over a window. */
async function observe(rig: Rig, ms: number): Promise<{ requests: number; cpuShare: number }> {
  rig.proxy.resetCounts();
  const cpu = process.cpuUsage();
  const started = Date.now();
  await sleep(ms);
  const used = process.cpuUsage(cpu);
  return { requests: rig.proxy.counts.requests, cpuShare: (used.user + used.system) / 1000 / (Date.now() - started) };
}

describe('a source answering errors', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await startRig({ proxyDown: true });
    rig.proxy.setRule(() => ({ kind: 'status', code: 500 }));
    await rig.proxy.up();
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('case 1: 500s from the start: readiness names the source, backoff spaces the retries, then it catches up', async () => {
    await eventually(async () => {
      const ready = await readyz(rig.local);
      expect(ready.status).toBe(503);
      expect(ready.text).toMatch(/\[-\]source:remote failed: .*500/);
    }, 15_000);
    const seen = await observe(rig, WINDOW_MS);
    expect(seen.requests).toBeGreaterThan(0);
    expect(seen.requests).toBeLessThanOrEqual(MAX_REQUESTS_IN_WINDOW);
    // The whole test process (both cachegates and the proxy) stays mostly idle.
    expect(seen.cpuShare).toBeLessThan(0.5);
    rig.proxy.setRule(undefined);
    await eventually(async () => expect((await readyz(rig.local)).status).toBe(200), 20_000, 100);
    await expectCacheEqualsSource(rig);
  });

  it('case 2: a synced source turning to 500s causes no hot loop, and the cache is exact afterwards', async () => {
    await mixedWrites(rig.things, { count: 30, prefix: 'before500' });
    await expectCacheEqualsSource(rig);
    rig.proxy.setRule(() => ({ kind: 'status', code: 500 }));
    rig.proxy.cut();
    const writing = mixedWrites(rig.things, { count: 60, prefix: 'during500', pauseMs: 20 });
    const seen = await observe(rig, WINDOW_MS);
    await writing;
    expect(seen.requests).toBeLessThanOrEqual(MAX_REQUESTS_IN_WINDOW);
    expect(seen.cpuShare).toBeLessThan(0.5);
    rig.proxy.setRule(undefined);
    await expectCacheEqualsSource(rig);
  });

  it('case 3: a 410 storm re-lists without losing events, and without a hot loop', async () => {
    let watches = 0;
    // Alternate the two ways a server says "too old": an HTTP 410 and an ERROR event with code 410.
    rig.proxy.setRule((line): Fault | undefined => {
      if (!/[?&]watch=(true|1)/i.test(line)) return undefined;
      watches += 1;
      return watches % 2 === 0 ? { kind: 'status', code: 410 } : { kind: 'watchErrorEvent', code: 410 };
    });
    rig.proxy.cut();
    const writing = mixedWrites(rig.things, { count: 150, prefix: 'storm', pauseMs: 20 });
    const seen = await observe(rig, WINDOW_MS);
    await writing;
    expect(watches).toBeGreaterThan(1);
    expect(seen.requests).toBeLessThanOrEqual(MAX_REQUESTS_IN_WINDOW);
    // Lists still pass during the storm, so the cache follows the source even before it ends.
    await expectCacheEqualsSource(rig);
    rig.proxy.setRule(undefined);
    await mixedWrites(rig.things, { count: 30, prefix: 'afterstorm' });
    await expectCacheEqualsSource(rig);
  });
});
