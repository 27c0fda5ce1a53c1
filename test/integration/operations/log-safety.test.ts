// What a client puts in a URL or a request id reaches the logs only when it is safe there:
//   case 1: credential-looking query parameters (`access_token`, `token`, `client_secret`, …)
//           are logged as `[Redacted]`, the rest of the URL as sent;
//   case 2–4: an x-request-id longer than 128 characters or with characters outside printable
//           ASCII is replaced by a fresh id (echoed instead), and the bad one is in no log line;
//   case 5: an acceptable x-request-id is still honoured and echoed.

import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import type { App } from '../../../src/app.js';
import { eventually } from '../../helpers/kube-http.js';
import { testConfig } from '../../helpers/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** get sends a GET with node:http, which (unlike fetch) passes any latin-1 header value on. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; requestId: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, requestId: res.headers['x-request-id'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('request logs', () => {
  const lines: string[] = [];
  let app: App;
  let url: string;

  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _encoding, done) => { lines.push(String(chunk)); done(); } });
    app = await buildApp(testConfig({ logLevel: 'debug' }), { logger: pino({ level: 'debug' }, sink) });
    url = await app.start();
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** requestLine waits for the per-request log line of the request with this id. */
  const requestLine = (id: string): Promise<Record<string, unknown>> => eventually(() => {
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['msg'] === 'request' && l['reqId'] === id);
    if (line === undefined) throw new Error(`no request line for ${id} yet`);
    return line;
  });

  it('case 1: credential-looking query parameters are redacted in the logged URL', async () => {
    const query = 'labelSelector=app%3Dweb&access_token=secret123&token=secret456&client_secret=secret789&limit=5';
    const res = await get(`${url}/v1/schemas?${query}`, { 'x-request-id': 'log-case-1' });
    expect(res.requestId).toBe('log-case-1');
    const line = await requestLine('log-case-1');
    expect(line['url']).toBe('/v1/schemas?labelSelector=app%3Dweb&access_token=[Redacted]&token=[Redacted]&client_secret=[Redacted]&limit=5');
    for (const secret of ['secret123', 'secret456', 'secret789']) expect(lines.join('')).not.toContain(secret);
  });

  it.each([
    ['case 2: 200 characters', `long-${'x'.repeat(195)}`],
    ['case 3: a tab', 'tab\there-id-0001'],
    ['case 4: a character outside ASCII', 'caf\u00e9-id-0001'],
  ])('%s in x-request-id: a fresh id is echoed and the bad one is never logged', async (_name, bad) => {
    const res = await get(`${url}/livez`, { 'x-request-id': bad });
    expect(res.status).toBe(200);
    expect(res.requestId).toMatch(UUID);
    await requestLine(res.requestId!);
    const log = lines.join('');
    expect(log).not.toContain(JSON.stringify(bad).slice(1, -1));
    expect(log).not.toContain(bad.slice(0, 8));
  });

  it('case 5: an id of up to 128 printable ASCII characters is honoured and echoed', async () => {
    const id = `ok-${'y'.repeat(125)}`;
    const res = await get(`${url}/livez`, { 'x-request-id': id });
    expect(res.requestId).toBe(id);
    await requestLine(id);
  });
});
