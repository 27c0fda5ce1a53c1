// How failures are logged (pino's convention: the message under `msg`, the error under `err`):
//   case 1: a client's mistake (4xx) is never logged at error level: its request line (info)
//           carries its status, and a request Node's parser refuses is logged at info;
//   case 2: a server fault (5xx) is logged at error, with `msg` and the error under `err`;
//   case 3: a 5xx that tells the client to retry later (Retry-After) is logged at warn;
//   case 4: a GraphQL subscription refused for a malformed selector is logged at info with the
//           error under `err` (not at error level, not as an array under "0"), and the client
//           still gets its BAD_REQUEST error.

import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import type { App } from '../../../src/app.js';
import { eventually, request } from '../../helpers/kube-http.js';
import { kubeconfigFor } from '../../helpers/kubeconfig.js';
import { freePort } from '../../helpers/process.js';
import { testConfig } from '../../helpers/test-app.js';
import { record, wsClient } from '../../e2e/graphql/graphql-http.js';
import { rawRequest } from './raw-http.js';

type LogLine = Record<string, unknown> & { level: number; msg?: string };

const ERROR_LEVEL = 50;

describe('error logs', () => {
  const lines: LogLine[] = [];
  let app: App;
  let url: string;

  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _encoding, done) => { lines.push(JSON.parse(String(chunk)) as LogLine); done(); } });
    // A source nobody listens on: writes to it are a server-side fault.
    const down = { name: 'down', kind: 'kcp', kubeconfig: kubeconfigFor(`http://127.0.0.1:${await freePort()}`) };
    app = await buildApp(testConfig({ logLevel: 'debug', sources: [down], limits: { bodyBytes: 4096, minResourceVersionWaitMs: 50 } }), { logger: pino({ level: 'debug' }, sink) });
    url = await app.start();
  });
  afterAll(async () => app?.stop());

  /** linesOf waits for the request line of the request with this id and returns every line of that request. */
  const linesOf = async (id: string): Promise<LogLine[]> => {
    await eventually(() => expect(lines.some((l) => l.reqId === id && l.msg === 'request')).toBe(true));
    return lines.filter((l) => l.reqId === id);
  };

  it('case 1: client mistakes (4xx) are not logged at error level', async () => {
    const configmaps = `${url}/clusters/root/api/v1/namespaces/default/configmaps`;
    const mistakes: Array<[string, string, unknown, number]> = [
      ['GET', `${url}/nope`, undefined, 404],
      ['DELETE', `${url}/v1/schemas`, undefined, 405],
      ['POST', configmaps, '{"not json', 400],
      ['POST', configmaps, { metadata: { name: 'x' }, data: { big: 'x'.repeat(8192) } }, 413],
      ['POST', configmaps, { metadata: { name: 'Not_A_Name' } }, 422],
      ['GET', `${url}/v1/cachedobjects?limit=many`, undefined, 400],
    ];
    for (const [i, [method, target, body, status]] of mistakes.entries()) {
      const id = `client-mistake-${i}`;
      const res = await request(method, target, body, 'application/json', { 'x-request-id': id });
      expect(res.status, `${method} ${target}`).toBe(status);
      const logged = await linesOf(id);
      expect(logged.filter((l) => l.level >= ERROR_LEVEL), `${method} ${target}`).toEqual([]);
      expect(logged.find((l) => l.msg === 'request')).toMatchObject({ level: 30, statusCode: status });
    }
    const refused = await rawRequest(url, `GET /v1/schemas HTTP/1.1\r\nHost: cachegate\r\nX-Padding: ${'a'.repeat(32 * 1024)}\r\n\r\n`);
    expect(refused.status).toBe(431);
    const line = await eventually(() => {
      const found = lines.find((l) => l.msg === 'malformed request refused');
      expect(found).toBeDefined();
      return found;
    });
    expect(line).toMatchObject({ level: 30, statusCode: 431, err: { code: 'HPE_HEADER_OVERFLOW' } });
    expect(JSON.stringify(line)).not.toContain('aaaaaaaa'); // the request's bytes stay out of the log
  });

  it('case 2: a server fault (5xx) is logged at error with msg and err', async () => {
    const res = await request('POST', `${url}/v1/objects/core/v1/configmaps?shard=down&cluster=root&namespace=default`, { metadata: { name: 'x' } }, 'application/json', { 'x-request-id': 'server-fault' });
    expect(res.status).toBe(503);
    const failed = (await linesOf('server-fault')).find((l) => l.level === ERROR_LEVEL);
    expect(failed).toMatchObject({ msg: 'request failed', err: { type: 'AppError', message: expect.stringContaining('unreachable') } });
  });

  it('case 3: a 5xx that asks the client to retry later is logged at warn, not error', async () => {
    const res = await request('GET', `${url}/v1/cachedobjects?minResourceVersion=elsewhere/root/1`, undefined, 'application/json', { 'x-request-id': 'retry-later' });
    expect(res.status).toBe(504);
    const logged = await linesOf('retry-later');
    expect(logged.filter((l) => l.level >= ERROR_LEVEL)).toEqual([]);
    expect(logged.find((l) => l.level === 40)).toMatchObject({ err: { type: 'AppError', message: expect.stringContaining('has not replicated') } });
  });

  it('case 4: a subscription with a malformed selector is logged at info with err, and answered BAD_REQUEST', async () => {
    const client = wsClient(url);
    try {
      const before = lines.length;
      const bad = record(client, 'subscription { cachedObjectEvents(filter: {labelSelector: "a in (b"}) { type } }');
      await eventually(() => expect(bad.errors).toMatchObject([{ message: expect.any(String), extensions: { code: 'BAD_REQUEST', reason: 'BadRequest' } }]));
      const logged = await eventually(() => {
        const found = lines.slice(before).find((l) => l.msg === 'subscription refused');
        expect(found).toBeDefined();
        return found;
      });
      expect(logged).toMatchObject({ level: 30, err: { type: 'AppError', message: expect.any(String) } });
      const since = lines.slice(before);
      expect(since.filter((l) => l.level >= ERROR_LEVEL)).toEqual([]);
      expect(since.filter((l) => '0' in l)).toEqual([]);
    } finally {
      await client.dispose();
    }
  });
});
