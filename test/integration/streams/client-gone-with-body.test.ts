// A streaming request (kube watch, SSE watch) that arrives with a large body the server does not
// read, from a client that then goes away: the server closes its side too. Left unread, the body
// paused the connection, and a paused connection never noticed the client leaving: a quiet watch
// held it open until its timeout (found by the HTTP fuzz test).
//   case 1: kube-API watch of the embedded source
//   case 2: kube-API watch of the cache API
//   case 3: SSE watch of the REST facade

import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/kube-http.js';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';

const BODY = 'x'.repeat(256 * 1024);

describe('a streaming request with an unread body, from a client that goes away', () => {
  let app: TestApp;
  const open = new Set<Socket>();

  beforeAll(async () => {
    app = await startTestApp();
    app.app.fastify.server.on('connection', (socket: Socket) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
  });
  afterAll(async () => app?.stop());

  it.each([
    ['case 1: kube-API watch of the embedded source', '/clusters/root/api/v1/namespaces/default/configmaps?watch=true', 'application/json'],
    ['case 2: kube-API watch of the cache API', '/services/cache/shards/*/clusters/*/apis/cache.kcp.io/v1alpha1/cachedobjects?watch=true', 'application/json'],
    ['case 3: SSE watch of the REST facade', '/v1/cachedobjects?watch=true', 'text/event-stream'],
  ])('%s: the server closes the connection', async (_name, path, accept) => {
    const client = connect(Number(new URL(app.url).port), '127.0.0.1');
    let head = '';
    client.on('data', (chunk: Buffer) => (head += chunk.toString('latin1')));
    client.on('error', () => undefined);
    await new Promise<void>((resolve) => client.once('connect', resolve));
    client.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: ${accept}\r\ncontent-type: text/plain\r\ncontent-length: ${BODY.length}\r\n\r\n`);
    client.write(BODY);
    await eventually(() => expect(head).toMatch(/^HTTP\/1\.1 200 /));
    const port = client.localPort;
    client.destroy();
    await eventually(() => expect([...open].filter((socket) => socket.remotePort === port)).toHaveLength(0));
  });
});
