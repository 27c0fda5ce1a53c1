// The HTTP fuzz test: thousands of random, malformed requests over every
// route of a real cachegate on loopback.
//   case 1: no request gets a 5xx or goes unanswered, the process still answers /livez, and the
//           heap returns near its baseline once the requests are done;
//   case 2: with auth on, random and garbage Authorization headers never get a 5xx.
// FUZZ_REQUESTS raises the count (default 3000); FUZZ_SEED replays a run (the run's seed is
// printed at its start, see test/helpers/run-seeds.ts).

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSeeds } from '../helpers/run-seeds.js';
import { collectGarbage, fire, livez, report, seed, settledHeapBytes, startFuzzApp } from './fuzz-app.js';
import type { FuzzApp } from './fuzz-app.js';
import { fuzzRequest } from './fuzz-routes.js';
import type { FuzzRequest } from './raw-client.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
const SEED_VALUE = runSeeds().fuzz;
// Generous: a leak of a few KiB per request over thousands of requests still shows.
const HEAP_SLACK_BYTES = 48 * 1024 * 1024;

function draw(arbitrary: fc.Arbitrary<FuzzRequest>, count: number, seedValue: number): FuzzRequest[] {
  return fc.sample(arbitrary, { numRuns: count, seed: seedValue });
}

describe('HTTP fuzz', () => {
  let target: FuzzApp;

  beforeAll(async () => {
    target = await startFuzzApp();
    await seed(target);
  });
  afterAll(async () => target?.stop());

  it(`case 1: ${REQUESTS} random requests over every route: no 5xx, alive, heap back to baseline`, async () => {
    // Warm-up: lazily built schemas, JIT and pools are not leaks.
    const warmUp = await fire(target.port, draw(fuzzRequest, 300, SEED_VALUE + 1));
    const baseline = await settledHeapBytes(target, warmUp);
    const batch = await fire(target.port, draw(fuzzRequest, REQUESTS, SEED_VALUE));
    const { offenders, statuses } = batch;
    console.log(`fuzz: ${REQUESTS} requests, answers by status ${JSON.stringify(statuses)}`);
    expect(offenders, report(offenders, target.errorLogs, SEED_VALUE)).toEqual([]);
    expect(await livez(target.url)).toBe(200);
    const after = await settledHeapBytes(target, batch);
    expect(after - baseline, `heap ${baseline} → ${after} bytes`).toBeLessThan(HEAP_SLACK_BYTES);
  });
});

const TOKEN = 'fuzz-admin-token-0123456789abcdef';

const authorization = fc.oneof(
  fc.constantFrom('', 'Bearer', 'Bearer ', 'bearer ' + TOKEN, `Bearer  ${TOKEN}`, `Bearer ${TOKEN} x`, `Bearer ${TOKEN}\u00ff`, `Basic ${TOKEN}`,
    `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${'a'.repeat(10_000)}`, 'Bearer \u00e9\u00e8', 'Negotiate YII=', 'Bearer %00', `Bearer ${TOKEN},Bearer x`),
  fc.string({ maxLength: 40 }).map((s) => `Bearer ${s.replace(/[\r\n]/g, '')}`),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes.filter((b) => b !== 10 && b !== 13)).toString('latin1')),
);

describe('HTTP fuzz with auth on', () => {
  let target: FuzzApp;

  beforeAll(async () => {
    target = await startFuzzApp({ auth: { tokens: [{ token: TOKEN, user: 'fuzz' }] } });
    await seed(target, { authorization: `Bearer ${TOKEN}` });
  });
  afterAll(async () => target?.stop());

  it('case 2: random Authorization headers never get a 5xx', async () => {
    const withAuth = fc.tuple(fuzzRequest, authorization).map(([req, auth]) => (req.raw ? req : { ...req, headers: { ...req.headers, authorization: auth } }));
    const { offenders, statuses } = await fire(target.port, draw(withAuth, Math.ceil(REQUESTS / 3), SEED_VALUE));
    console.log(`fuzz (auth): answers by status ${JSON.stringify(statuses)}`);
    expect(offenders, report(offenders, target.errorLogs, SEED_VALUE)).toEqual([]);
    expect(await livez(target.url)).toBe(200);
    collectGarbage();
  });
});
