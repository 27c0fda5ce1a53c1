// Raw HTTP over a socket, for the answers no HTTP client lets a test provoke: requests Node's
// parser refuses (headers too large, a malformed request line) and requests arriving on a
// connection opened before the listener closed.

import { connect } from 'node:net';
import type { Socket } from 'node:net';

/** RawAnswer is a response read off the socket: status line, lower-cased headers and body. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** openSocket connects to the port of baseUrl. */
export async function openSocket(baseUrl: string): Promise<Socket> {
  const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** exchange writes raw bytes and reads until the server closes the connection. */
export function exchange(socket: Socket, raw: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    // A server that refuses a request may reset the connection after its answer: keep what came.
    socket.once('error', (err) => (text === '' ? reject(err) : undefined));
    socket.once('close', () => resolve(parseAnswer(text)));
    socket.write(raw);
  });
}

/** rawRequest opens a connection, sends raw and reads the answer. */
export async function rawRequest(baseUrl: string, raw: string): Promise<RawAnswer> {
  return exchange(await openSocket(baseUrl), raw);
}

function parseAnswer(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) };
}
