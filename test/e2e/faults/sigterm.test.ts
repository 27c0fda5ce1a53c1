// SIGTERM under load, on the real process (`npm start`):
//   case 1: with 24 clients looping GETs (REST, cache API, embedded API) and two kube watches and
//           two SSE streams open, SIGTERM → /readyz answers 503 at once; every request started
//           before the signal completes with 200 and a whole body; no response is cut off
//           after its head (one arriving once the listener is closed is a whole 503 Status); the
//           watches end cleanly; the process exits 0.

import { describe, expect, it } from 'vitest';
import { DEADLINE_MS, crd, eventually, request } from '../../helpers/kube-http.js';
import { freePort, startProcess, waitReady } from '../../helpers/process.js';
import { CCRS, ccr } from '../../helpers/replication.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GVR = { group: 'term.example.com', version: 'v1', resource: 'things' };
const SCHEMA = 'v1.things.term.example.com';
const WORKERS = 24;
const OBJECTS = 200;
/** EXIT_DEADLINE_MS bounds the wait for the process to exit: it fails a hang, it times nothing. */
const EXIT_DEADLINE_MS = 2 * DEADLINE_MS;

/** Outcome of one GET: ok with a whole JSON body, refused with a whole 503 Status, or how it failed and whether a head had arrived. */
interface Outcome {
  readonly startedAt: number;
  readonly ok: boolean;
  readonly refused?: boolean;
  readonly status?: number;
  readonly headArrived: boolean;
  readonly error?: string;
}

async function get(url: string): Promise<Outcome> {
  const startedAt = Date.now();
  let status: number | undefined;
  try {
    const res = await fetch(url);
    status = res.status;
    const body = JSON.parse(await res.text()) as { kind?: unknown; reason?: unknown };
    const refused = res.status === 503 && body.kind === 'Status' && body.reason === 'ServiceUnavailable';
    return { startedAt, ok: res.status === 200, refused, status, headArrived: true };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? String(err);
    return { startedAt, ok: false, ...(status === undefined ? {} : { status }), headArrived: status !== undefined, error: cause };
  }
}

/** loadLoop GETs the URLs in turn until stop() says so or a connection is refused (the listener is gone). */
async function loadLoop(urls: readonly string[], stop: () => boolean, out: Outcome[]): Promise<void> {
  for (let i = 0; !stop(); i++) {
    const outcome = await get(urls[i % urls.length]!);
    out.push(outcome);
    if (outcome.error === 'ECONNREFUSED') return;
  }
}

/** stream opens a streaming GET; `ended` resolves with how the stream ended (wrapped: an async function would wait for it). */
async function stream(url: string, accept: string): Promise<{ ended: Promise<string> }> {
  const res = await fetch(url, { headers: { accept } });
  expect(res.status).toBe(200);
  return { ended: res.text().then(() => 'clean', (err: unknown) => `failed: ${String((err as { cause?: unknown }).cause ?? err)}`) };
}

/** firstAnswerNotReady polls /readyz until it stops answering 200 and returns what came instead: a status, or the connection error. */
async function firstAnswerNotReady(base: string): Promise<number | string> {
  return eventually(async () => {
    const answer = await fetch(`${base}/readyz`).then(
      (res) => res.status,
      (err: unknown) => String((err as { cause?: { code?: string } }).cause?.code ?? err),
    );
    expect(answer).not.toBe(200);
    return answer;
  }, DEADLINE_MS, 10);
}

async function seed(base: string): Promise<void> {
  const root = `${base}/clusters/root`;
  expect((await request('POST', `${root}${CRDS}`, crd({ group: GVR.group, plural: GVR.resource, kind: 'Thing', versions: [GVR.version] }))).status).toBe(201);
  expect((await request('POST', `${root}${CCRS}`, ccr('things', GVR))).status).toBe(201);
  const things = `${root}/apis/${GVR.group}/${GVR.version}/${GVR.resource}`;
  for (let i = 0; i < OBJECTS; i++) expect((await request('POST', things, { metadata: { name: `t-${i}` }, spec: { i, text: 'x'.repeat(200) } })).status).toBe(201);
  await eventually(async () => expect((await request('GET', `${base}/v1/cachedobjects?schema=${SCHEMA}&limit=1`)).body.metadata.remainingItemCount).toBe(OBJECTS - 1));
}

describe('SIGTERM under load', () => {
  it('case 1: readiness 503 while still serving, in-flight requests complete, watches end cleanly, exit 0', async () => {
    const port = await freePort();
    const proc = startProcess(['--port', String(port)]);
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitReady(proc, base);
      await seed(base);
      const urls = [
        `${base}/v1/schemas/${SCHEMA}/objects?limit=100`,
        `${base}/v1/cachedobjects?schema=${SCHEMA}`,
        `${base}/v1/objects/${GVR.group}/${GVR.version}/${GVR.resource}/t-7`,
        `${base}/clusters/root/apis/${GVR.group}/${GVR.version}/${GVR.resource}`,
        `${base}/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects?limit=50`,
      ];
      const watches = [
        await stream(`${base}/clusters/root/apis/${GVR.group}/${GVR.version}/${GVR.resource}?watch=true`, 'application/json'),
        await stream(`${base}/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects?watch=true`, 'application/json'),
        await stream(`${base}/v1/cachedobjects?watch=true&schema=${SCHEMA}`, 'text/event-stream'),
        await stream(`${base}/v1/cachedobjects?watch=true`, 'text/event-stream'),
      ];
      let exited = false;
      const outcomes: Outcome[] = [];
      const workers = Array.from({ length: WORKERS }, (_, w) => loadLoop([...urls.slice(w % urls.length), ...urls.slice(0, w % urls.length)], () => exited, outcomes));
      await eventually(() => expect(outcomes.filter((o) => o.ok).length).toBeGreaterThan(WORKERS * 2));

      const signalledAt = Date.now();
      process.kill(await eventually(() => proc.serverPid()), 'SIGTERM');
      // Readiness turns 503 while the listener still serves (the drain delay), so the first answer
      // after 200 is a 503 and never a refused connection, however late the signal is handled.
      expect(await firstAnswerNotReady(base)).toBe(503);
      const code = await Promise.race([proc.exited, new Promise((resolve) => setTimeout(() => resolve(`still running after ${EXIT_DEADLINE_MS} ms`), EXIT_DEADLINE_MS))]);
      expect(code).toBe(0);
      exited = true;
      await Promise.all(workers);

      const before = outcomes.filter((o) => o.startedAt < signalledAt);
      expect(before.filter((o) => !o.ok)).toEqual([]);
      // A request the server answered (a head arrived) is always answered whole.
      expect(outcomes.filter((o) => o.headArrived && !o.ok && !o.refused)).toEqual([]);
      expect(await Promise.all(watches.map((w) => w.ended))).toEqual(['clean', 'clean', 'clean', 'clean']);
    } finally {
      proc.killAll();
      await proc.exited;
    }
  }, 4 * DEADLINE_MS + EXIT_DEADLINE_MS);
});
