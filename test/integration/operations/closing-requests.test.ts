// Once the listener is closed, a request still arriving on a connection opened before is
// answered 503 ServiceUnavailable as a kube Status (not fastify's own body), with
// `Connection: close`, and the connection then ends.

import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEADLINE_MS, eventually } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';

/** refused tells whether a new connection to port is refused (the listener is closed). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** exchange writes a raw request and reads until the server ends the connection. */
function exchange(socket: Socket, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('close', () => resolve(text));
    socket.once('error', reject);
    socket.write(raw);
  });
}

describe('requests while closing', () => {
  it('case 1: a request on an open connection after the listener closed gets a 503 Status and Connection: close', async () => {
    const app = await startTestApp();
    const port = Number(new URL(app.url).port);
    const early = connect(port, '127.0.0.1');
    await new Promise((resolve) => early.once('connect', resolve));
    const stopped = app.stop();
    await eventually(async () => expect(await refused(port)).toBe(true), DEADLINE_MS, 5);
    const answer = await exchange(early, 'GET /v1/schemas HTTP/1.1\r\nHost: cachegate\r\n\r\n');
    await stopped;
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(body)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'ServiceUnavailable', code: 503 });
  });
});
