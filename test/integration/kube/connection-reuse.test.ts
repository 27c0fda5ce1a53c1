// Requests to a source reuse their connections: client-node builds a new dispatcher (and with it a
// new connection pool) for every request it authenticates, and before the transport kept one,
// every request to a source opened a connection of its own.
//   case 1: 60 requests one after the other, through a kubeconfig, arrive on one connection or a few.

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceTransport } from '../../../src/kube/source-transport.js';
import { kubeconfigFor } from '../../helpers/kubeconfig.js';

describe('source connections', () => {
  let server: Server;
  let connections = 0;
  let url = '';

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"kind":"Status","apiVersion":"v1","status":"Success"}');
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('case 1: requests one after the other reuse a connection', async () => {
    const transport = SourceTransport.fromFile(kubeconfigFor(url));
    for (let i = 0; i < 60; i++) expect((await transport.send({ method: 'GET', path: '/version' })).status).toBe(200);
    expect(connections).toBeLessThanOrEqual(3);
  });
});
