// Graceful close needs every connection to end. Idle keep-alive connections are closed by the
// server, and in-flight requests finish; but Node 20 leaves a connection that has never carried a
// request (clients such as undici open spare ones) open forever, so server.close() never returns.
// The tracker ends exactly those at close, and refuses new connections once closing.

import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** ConnectionTracker remembers which connections have carried a request. */
export class ConnectionTracker {
  readonly #sockets = new Set<Socket>();
  readonly #served = new WeakSet<Socket>();
  #closing = false;

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      if (this.#closing) {
        socket.destroy();
        return;
      }
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    server.on('request', (req) => this.#served.add(req.socket));
  }

  /** closing destroys the connections that never carried a request, and any opened from now on. */
  closing(): void {
    this.#closing = true;
    for (const socket of this.#sockets) if (!this.#served.has(socket)) socket.destroy();
  }
}
