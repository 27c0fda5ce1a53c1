// A source that answers with errors, behind a TCP proxy that answers for it:
//   case 1: the source answers 500 from the start → readiness names it with the error, requests
//           are spaced by backoff (a generous bound on their rate); once it answers again the
//           cache catches up.
//   case 2: a synced source turns to 500s → still no hot loop; afterwards the cache is exact.
//   case 3: a 410 storm (every watch answered 410 Gone, as an HTTP status or as an ERROR event)
//           during writes → re-lists, spaced by backoff, lose no event: the cache equals the source.

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, eventually } from '../../helpers/kube-http.js';
import type { Fault } from '../../helpers/tcp-proxy.js';
import { expectCacheEqualsSource, startRig } from './fault-rig.js';
import { readyz } from '../../helpers/test-app.js';
import type { Rig } from './fault-rig.js';
import { mixedWrites } from './mixed-writes.js';

/** WINDOW_MS is how long the proxy's requests are counted: an observation window, not a wait for something to happen. */
const WINDOW_MS = 6000;

/**
 * maxRetryRequests bounds the requests a window may see without a hot loop. The local cachegate
 * runs two informers (CCRs, things) and a CCR controller; with backoff (200 ms doubling to 5 s)
 * each retries a handful of times at first, then once every 5 s. A hot loop makes hundreds of
 * requests a second even on a machine four times slower. The bound grows with the window's real
 * length, so a window stretched by a loaded machine does not break it: load only slows requests.
 */
function maxRetryRequests(elapsedMs: number): number {
  return 60 + Math.ceil(elapsedMs / 100);
}

/** Observed is what reached the proxy over a window, and how long the window really lasted. */
interface Observed {
  readonly requests: number;
  readonly elapsedMs: number;
}

/** observe counts the requests reaching the proxy over a window of at least ms. */
async function observe(rig: Rig, ms: number): Promise<Observed> {
  rig.proxy.resetCounts();
  const started = performance.now();
  await sleep(ms);
  return { requests: rig.proxy.counts.requests, elapsedMs: performance.now() - started };
}

/** expectNoHotLoop: the requests of the window stay within what backoff allows. */
function expectNoHotLoop(seen: Observed): void {
  expect(seen.requests, `${seen.requests} requests in ${Math.round(seen.elapsedMs)} ms`).toBeLessThanOrEqual(maxRetryRequests(seen.elapsedMs));
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
    });
    const seen = await observe(rig, WINDOW_MS);
    expect(seen.requests).toBeGreaterThan(0);
    expectNoHotLoop(seen);
    rig.proxy.setRule(undefined);
    await eventually(async () => expect((await readyz(rig.local)).status).toBe(200), DEADLINE_MS, 100);
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
    expectNoHotLoop(seen);
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
    expectNoHotLoop(seen);
    // Lists still pass during the storm, so the cache follows the source even before it ends.
    await expectCacheEqualsSource(rig);
    rig.proxy.setRule(undefined);
    await mixedWrites(rig.things, { count: 30, prefix: 'afterstorm' });
    await expectCacheEqualsSource(rig);
  });
});
