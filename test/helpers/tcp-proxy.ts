// A real TCP proxy on a loopback port in front of a server, for fault tests: it can cut every
// open connection, refuse connections (down) and come back up on the same port, and answer
// requests itself (HTTP 500, 410 Gone, or a watch that sends one ERROR event) instead of
// passing them on. It reads each request's head to decide, and makes every passed-on request
// `Connection: close`, so one connection carries exactly one request and every request meets
// the rules in force when it was sent.

import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

/** Fault is how the proxy answers a request itself instead of passing it on. */
export type Fault =
  | { readonly kind: 'status'; readonly code: number }
  /** watchErrorEvent: a 200 watch response carrying one ERROR event with this code, then the end. */
  | { readonly kind: 'watchErrorEvent'; readonly code: number };

/** Rule picks a fault for a request (by its request line) or undefined to pass it on. */
export type Rule = (requestLine: string) => Fault | undefined;

/** ProxyCounts: requests seen since the last resetCounts(), answered by the proxy or passed on. */
export interface ProxyCounts {
  readonly requests: number;
  readonly faulted: number;
  readonly watches: number;
}

/** TcpProxy forwards loopback connections to a target port. */
export class TcpProxy {
  readonly port: number;
  readonly #targetPort: number;
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #rule: Rule | undefined;
  #counts = { requests: 0, faulted: 0, watches: 0 };

  private constructor(port: number, targetPort: number) {
    this.port = port;
    this.#targetPort = targetPort;
  }

  /** start listens on `port` (0 = any free port) in front of 127.0.0.1:targetPort. */
  static async start(targetPort: number, port = 0): Promise<TcpProxy> {
    const server = createServer();
    const bound = await listen(server, port);
    const proxy = new TcpProxy(bound, targetPort);
    proxy.#serve(server);
    return proxy;
  }

  /** url is the proxy's base URL. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** counts are the requests seen since the last resetCounts(). */
  get counts(): ProxyCounts {
    return { ...this.#counts };
  }

  resetCounts(): void {
    this.#counts = { requests: 0, faulted: 0, watches: 0 };
  }

  /** setRule answers matching requests with a fault from now on (undefined: pass everything). */
  setRule(rule: Rule | undefined): void {
    this.#rule = rule;
  }

  /** cut destroys every open connection, both sides, as a network failure would. */
  cut(): void {
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  /** down cuts everything and stops listening: new connections are refused. */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.cut();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** up listens again on the same port. */
  async up(): Promise<void> {
    if (this.#server) return;
    const server = createServer();
    await listen(server, this.port);
    this.#serve(server);
  }

  /** close stops the proxy for good. */
  close(): Promise<void> {
    return this.down();
  }

  #serve(server: Server): void {
    this.#server = server;
    server.on('connection', (client) => this.#accept(client));
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => this.#sockets.delete(socket));
  }

  #accept(client: Socket): void {
    this.#track(client);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onData);
      client.pause();
      this.#route(client, head, end);
    };
    client.on('data', onData);
  }

  /** #route answers the request itself or passes it, head rewritten to `Connection: close`, to the target. */
  #route(client: Socket, buffered: Buffer, headEnd: number): void {
    const headText = buffered.subarray(0, headEnd).toString('latin1');
    const requestLine = headText.slice(0, headText.indexOf('\r\n'));
    this.#counts.requests += 1;
    if (/[?&]watch=(true|1)/i.test(requestLine)) this.#counts.watches += 1;
    const fault = this.#rule?.(requestLine);
    if (fault) {
      this.#counts.faulted += 1;
      client.end(faultResponse(fault));
      return;
    }
    const upstream = connect(this.#targetPort, '127.0.0.1');
    this.#track(upstream);
    upstream.once('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
    upstream.write(Buffer.concat([Buffer.from(closingHead(headText), 'latin1'), buffered.subarray(headEnd)]));
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  }
}

/** closingHead replaces any Connection header with `Connection: close`. */
function closingHead(head: string): string {
  const lines = head.split('\r\n').filter((line) => !/^connection:/i.test(line));
  return [...lines, 'Connection: close'].join('\r\n');
}

/** faultResponse is a complete HTTP/1.1 response for a fault, closing the connection. */
function faultResponse(fault: Fault): string {
  const status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: fault.code, reason: reasonOf(fault.code), message: `injected by the test proxy (${fault.code})` };
  if (fault.kind === 'watchErrorEvent') {
    const line = `${JSON.stringify({ type: 'ERROR', object: status })}\n`;
    return `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(line)}\r\nConnection: close\r\n\r\n${line}`;
  }
  const body = JSON.stringify(status);
  return `HTTP/1.1 ${fault.code} ${reasonOf(fault.code)}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function reasonOf(code: number): string {
  if (code === 410) return 'Expired';
  if (code === 503) return 'ServiceUnavailable';
  return 'InternalError';
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
