// Graceful close, connection by connection. Closing an HTTP server loses requests in four ways,
// and the tracker avoids each:
// - a keep-alive connection closed by the server just as its client sends the next request on it
//   (the client sees a reset): from drain() on, every response says `Connection: close`, so each
//   client leaves after a complete response instead;
// - connections the kernel has accepted but the process has not yet taken are reset when the
//   listening socket closes: the listener closes only once no new connection has come for
//   QUIET_MS, and requests arriving meanwhile are held (answered only once it is closed), so
//   clients that reconnect after each answer are waiting, not connecting, when it closes;
// - a connection taken but whose request is not read yet, destroyed at close (reset again): a
//   connection with nothing in flight gets CLOSE_GRACE_MS to deliver a request before it is ended;
// - Node 20 never ends a connection that has not carried a request (clients such as undici open
//   spare ones), nor one whose streamed response ended after close, so server.close() would never
//   return: the same grace ends those.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** CLOSE_GRACE_MS is how long a connection with nothing in flight may still send a request once the listener is closed. */
export const CLOSE_GRACE_MS = 500;
/** QUIET_MS: the listener closes once no connection has arrived for this long (or after MAX_QUIET_WAIT_MS). */
export const QUIET_MS = 50;
/** MAX_QUIET_WAIT_MS bounds the wait for a quiet moment under a load that never pauses. */
export const MAX_QUIET_WAIT_MS = 1000;

interface Connection {
  /** open are the responses not yet finished on this connection. */
  readonly open: Set<ServerResponse>;
  /** endTimer ends the connection once the grace is over, unless a request comes. */
  endTimer?: NodeJS.Timeout;
}

/** ConnectionTracker drains and closes one HTTP server's connections without resetting any request. */
export class ConnectionTracker {
  readonly #server: Server;
  readonly #connections = new Map<Socket, Connection>();
  #draining = false;
  #lastConnectionAt = 0;
  #listenerClosed: Promise<void> | undefined;
  #closed = false;

  constructor(server: Server) {
    this.#server = server;
    server.on('connection', (socket: Socket) => this.#track(socket));
    // Ahead of fastify's listener, so the header is set before any handler writes the head.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.#onRequest(req.socket, res));
  }

  /** listenerClosed is undefined while serving; once closing, it resolves when the listener is closed. Requests arriving meanwhile wait for it, then are refused. */
  get listenerClosed(): Promise<void> | undefined {
    return this.#listenerClosed;
  }

  /** drain asks every client to close its connection after its next response (one not yet begun included). */
  drain(): void {
    this.#draining = true;
    for (const connection of this.#connections.values()) {
      for (const res of connection.open) if (!res.headersSent) res.setHeader('connection', 'close');
    }
  }

  /**
   * stopAccepting closes the listener at a quiet moment (new connections are then refused; Node
   * ends the idle keep-alive ones) and gives every other connection with nothing in flight
   * CLOSE_GRACE_MS to deliver a request before it is ended. Requests in flight finish. It resolves
   * once the listener is closed; calling it again gives the same promise.
   */
  stopAccepting(): Promise<void> {
    this.drain();
    this.#listenerClosed ??= this.#closeWhenQuiet().then(() => {
      this.#closed = true;
      for (const [socket, connection] of this.#connections) if (connection.open.size === 0) this.#endAfterGrace(socket, connection);
    });
    return this.#listenerClosed;
  }

  async #closeWhenQuiet(): Promise<void> {
    const deadline = performance.now() + MAX_QUIET_WAIT_MS;
    for (;;) {
      const quietFor = performance.now() - this.#lastConnectionAt;
      if (quietFor < QUIET_MS && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS - quietFor));
        continue;
      }
      // From a setImmediate, the poll phase just before has taken every connection waiting in the
      // kernel's queue; if it took one, the moment was not quiet after all.
      const before = this.#lastConnectionAt;
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#lastConnectionAt !== before && performance.now() < deadline) continue;
      // The callback form is not used: fastify.close() waits for the server's close event itself.
      this.#server.close();
      return;
    }
  }

  #track(socket: Socket): void {
    this.#lastConnectionAt = performance.now();
    const connection: Connection = { open: new Set() };
    this.#connections.set(socket, connection);
    socket.once('close', () => {
      clearTimeout(connection.endTimer);
      this.#connections.delete(socket);
    });
  }

  #onRequest(socket: Socket, res: ServerResponse): void {
    if (this.#draining) res.setHeader('connection', 'close');
    const connection = this.#connections.get(socket);
    if (connection === undefined) return;
    clearTimeout(connection.endTimer);
    connection.open.add(res);
    res.once('close', () => {
      connection.open.delete(res);
      // A response that could not say `Connection: close` (a stream begun before the drain) leaves its connection open.
      if (this.#closed && connection.open.size === 0 && !socket.destroyed) this.#endAfterGrace(socket, connection);
    });
  }

  #endAfterGrace(socket: Socket, connection: Connection): void {
    clearTimeout(connection.endTimer);
    connection.endTimer = setTimeout(() => {
      if (connection.open.size === 0) socket.destroy();
    }, CLOSE_GRACE_MS);
    connection.endTimer.unref();
  }
}
