// A byte-for-byte TCP proxy for protocols the HTTP proxy (tcp-proxy.ts) cannot read, such as
// etcd's gRPC: it passes everything through and can cut every connection and refuse new ones,
// as a network failure would, then accept again on the same port.

import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

/** RawTcpProxy forwards 127.0.0.1:<port> to 127.0.0.1:<targetPort>. */
export class RawTcpProxy {
  readonly port: number;
  readonly #targetPort: number;
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;

  private constructor(port: number, targetPort: number) {
    this.port = port;
    this.#targetPort = targetPort;
  }

  /** start listens on a free port (or port) and forwards to targetPort. */
  static async start(targetPort: number, port = 0): Promise<RawTcpProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const address = server.address();
    const proxy = new RawTcpProxy(typeof address === 'object' && address ? address.port : port, targetPort);
    proxy.#serve(server);
    return proxy;
  }

  /** url is the proxy's http URL. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** down destroys every connection and refuses new ones. */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** up accepts connections again on the same port. */
  async up(): Promise<void> {
    if (this.#server) return;
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.#serve(server);
  }

  #serve(server: Server): void {
    this.#server = server;
    server.on('connection', (client) => {
      const upstream = connect(this.#targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('error', () => undefined);
        socket.once('close', () => this.#sockets.delete(socket));
      }
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }
}
