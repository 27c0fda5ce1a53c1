// A raw HTTP/1.1 client over node:net, so the fuzz test can send what fetch refuses to: any
// method, bytes that are not UTF-8, broken request lines and headers, lying Content-Length.
// Each request uses its own connection (`Connection: close`), so one bad request cannot poison
// the next. Streaming answers (watches, SSE) are cut once the status line and a little body are in.

import { connect } from 'node:net';
import { DEADLINE_MS } from '../helpers/kube-http.js';

/** FuzzRequest is one request: either structured parts, or the raw bytes of a whole request. */
export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  /** raw replaces everything above with exactly these bytes. */
  readonly raw?: Buffer;
}

/** FuzzResponse is what came back: status 0 means the server closed without a status line. */
export interface FuzzResponse {
  readonly status: number;
  readonly head: string;
  readonly body: string;
  /** hung is true when no status line arrived within the deadline. */
  readonly hung: boolean;
  /** localPort is the client's port of the connection (undefined if it never connected). */
  readonly localPort: number | undefined;
}

const BODY_SAMPLE_BYTES = 4096;

/** encodeRequest writes a structured request as bytes; Content-Length is added unless given. */
export function encodeRequest(request: FuzzRequest): Buffer {
  if (request.raw !== undefined) return request.raw;
  const headers: Record<string, string> = { host: '127.0.0.1', connection: 'close', ...request.headers };
  const hasLength = Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name));
  if (request.body !== undefined && !hasLength) headers['content-length'] = String(request.body.length);
  const lines = [`${request.method} ${request.path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  // latin1 keeps every code unit below 256 as one byte, so headers can carry non-ASCII bytes.
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), request.body ?? Buffer.alloc(0)]);
}

/**
 * FUZZ_CLIENT_ADDRESS is the loopback address the fuzz client connects from. The server's own
 * clients (its controllers reach the embedded source over loopback) connect from 127.0.0.1, and
 * may be given a port a fuzz request used before: the address tells the two apart.
 */
export const FUZZ_CLIENT_ADDRESS = '127.0.0.2';

/** send delivers one request and reads the answer; it never rejects. */
export function send(port: number, request: FuzzRequest, timeoutMs = DEADLINE_MS): Promise<FuzzResponse> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: FUZZ_CLIENT_ADDRESS });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let localPort: number | undefined;
    socket.once('connect', () => (localPort = socket.localPort));
    const finish = (hung: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(linger);
      socket.destroy();
      resolve({ ...parse(Buffer.concat(chunks).toString('utf8'), hung), localPort });
    };
    const timer = setTimeout(() => finish(!headComplete(chunks)), timeoutMs);
    // Once the head is in, a streaming body gets a moment, then the connection is cut.
    let linger: NodeJS.Timeout | undefined;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > BODY_SAMPLE_BYTES) finish(false);
      else if (linger === undefined && headComplete(chunks)) linger = setTimeout(() => finish(false), 300);
    });
    socket.on('end', () => finish(false));
    socket.on('close', () => finish(false));
    socket.on('error', () => finish(false));
    // Raw requests may be incomplete on purpose: closing our side tells the server no more is coming,
    // as a client that gave up would (otherwise the server rightly waits for the rest).
    if (request.raw !== undefined) socket.end(request.raw);
    else socket.write(encodeRequest(request), () => undefined);
  });
}

function headComplete(chunks: readonly Buffer[]): boolean {
  return Buffer.concat(chunks).includes('\r\n\r\n');
}

function parse(text: string, hung: boolean): Omit<FuzzResponse, 'localPort'> {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  const split = text.indexOf('\r\n\r\n');
  return {
    status: match ? Number(match[1]) : 0,
    head: split < 0 ? text : text.slice(0, split),
    body: split < 0 ? '' : text.slice(split + 4, split + 4 + 1000),
    hung,
  };
}

/** describeRequest prints a request for a failure message, cut to a readable size. */
export function describeRequest(request: FuzzRequest): string {
  const bytes = encodeRequest(request);
  const text = bytes.subarray(0, 1500).toString('latin1');
  return JSON.stringify(text) + (bytes.length > 1500 ? ` … (${bytes.length} bytes)` : '');
}
