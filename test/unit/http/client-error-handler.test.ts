// The answers Node's HTTP server gives through clientErrorHandler when its headers timeout fires,
// on a real server with a short timeout and raw sockets:
//   case 1: a connection that sends nothing is closed without a byte: there is no request to
//           answer, and a 408 left in a client's buffer would be read as its next request's answer
//   case 2: a request whose headers never finish gets 408 RequestTimeout as a Status, then the close

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientErrorHandler } from '../../../src/http/client-error-handler.js';

/** DEADLINE_MS: generous, for a loaded machine; the timeout itself is short. */
const DEADLINE_MS = 30_000;

let server: Server;

beforeAll(async () => {
  server = createServer({ headersTimeout: 300, requestTimeout: 0, connectionsCheckingInterval: 50 }, (_req, res) => res.end('ok'));
  server.on('clientError', clientErrorHandler(pino({ level: 'silent' })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** received sends raw (nothing when empty) and resolves with every byte the server sent before it closed. */
async function received(raw: string): Promise<string> {
  const socket: Socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return new Promise((resolve, reject) => {
    let text = '';
    const deadline = setTimeout(() => reject(new Error(`the server kept the connection open; it sent ${JSON.stringify(text)}`)), DEADLINE_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(deadline);
      resolve(text);
    });
    if (raw !== '') socket.write(raw);
  });
}

describe('clientErrorHandler on a headers timeout', () => {
  it('case 1: a connection that sends nothing is closed without a byte', async () => {
    expect(await received('')).toBe('');
  }, DEADLINE_MS + 5_000);

  it('case 2: a request whose headers never finish gets 408 RequestTimeout as a Status', async () => {
    const text = await received('GET /v1/schemas HTTP/1.1\r\nHost: cachegate\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toMatchObject({ kind: 'Status', reason: 'RequestTimeout', code: 408 });
  }, DEADLINE_MS + 5_000);
});
