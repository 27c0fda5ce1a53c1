// Source faults, with the remote source behind a TCP proxy:
//   case 1: the source is down at start → readiness names it; it comes up → the cache catches up.
//   case 2: every connection is cut after every 150th of 600 mixed writes → the cache ends
//           exactly equal to the source. The cuts follow the writes, not the clock, so each run
//           cuts as often on a slow machine as on a fast one. The scenario runs FAULT_RUNS times
//           (default 2, to fit CI time); exactness in every one of 10 runs is checked with
//           FAULT_RUNS=10.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_MS, eventually, request } from '../../helpers/kube-http.js';
import { expectCacheEqualsSource, startRig } from './fault-rig.js';
import { readyz } from '../../helpers/test-app.js';
import type { Rig } from './fault-rig.js';
import { mixedWrites } from './mixed-writes.js';

const RUNS = Number(process.env['FAULT_RUNS'] ?? 2);
const WRITES = 600;
const CUT_EVERY_WRITES = 150;

describe('source faults: down at start, connections cut', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await startRig({ proxyDown: true });
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('case 1: a source down at start is named by readiness, and caught up once it comes up', async () => {
    for (let i = 0; i < 5; i++) expect((await request('POST', rig.things, { metadata: { name: `early-${i}` }, spec: { i } })).status).toBe(201);
    await eventually(async () => {
      const ready = await readyz(rig.local);
      expect(ready.status).toBe(503);
      expect(ready.text).toMatch(/\[-\]source:remote failed: .*(ECONNREFUSED|unreachable|refused)/);
    });
    await rig.proxy.up();
    await eventually(async () => expect((await readyz(rig.local)).status).toBe(200), DEADLINE_MS, 100);
    await expectCacheEqualsSource(rig);
  });

  for (let run = 1; run <= RUNS; run++) {
    it(`case 2 (run ${run}/${RUNS}): connections cut after every ${CUT_EVERY_WRITES}th of ${WRITES} mixed writes → cache equals source`, async () => {
      rig.proxy.resetCounts();
      const cutAfter = (index: number): void => {
        if (index % CUT_EVERY_WRITES === CUT_EVERY_WRITES - 1) rig.proxy.cut();
      };
      await mixedWrites(rig.things, { count: WRITES, prefix: `run${run}`, afterWrite: cutAfter });
      await expectCacheEqualsSource(rig, 2 * DEADLINE_MS);
      // The cuts really broke watches: the local cachegate had to watch again.
      expect(rig.proxy.counts.watches).toBeGreaterThan(1);
    }, 6 * DEADLINE_MS);
  }
});
