// A bare graphql-transport-ws connection for tests that must send what a well-behaved client never
// does (a subscribe before connection_init, a second init, oversized frames, floods) and see
// exactly what the server answers: every message received, and the close code.

import WebSocket from 'ws';
import { DEADLINE_MS } from '../../helpers/kube-http.js';

/** Closed is how a connection ended. */
export interface Closed {
  readonly code: number;
  readonly reason: string;
}

/** RawSession is one open WebSocket to /graphql and what it has received. */
export interface RawSession {
  readonly socket: WebSocket;
  /** messages are the parsed messages received so far, in order. */
  readonly messages: Array<{ type: string; id?: string; payload?: unknown }>;
  /** opened resolves once the handshake is done (rejects if it was refused). */
  readonly opened: Promise<void>;
  /** closed resolves with the close code once the connection has ended. */
  readonly closed: Promise<Closed>;
  /** send sends one message as JSON (or a string as is), ignoring a socket that has closed meanwhile. */
  send(message: unknown): void;
}

/** rawSession opens a WebSocket to baseUrl/graphql with the graphql-transport-ws subprotocol. */
export function rawSession(baseUrl: string, headers: Record<string, string> = {}): RawSession {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers });
  const messages: RawSession['messages'] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    socket.once('error', reject);
  });
  const closed = new Promise<Closed>((resolve) => {
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  opened.catch(() => undefined); // observed by the tests that expect a refusal
  return {
    socket,
    messages,
    opened,
    closed,
    send: (message) => {
      if (socket.readyState !== WebSocket.OPEN) return;
      socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    },
  };
}

/** within rejects when pending has not settled after ms (a generous deadline, not a timing assertion). */
export async function within<T>(pending: Promise<T>, ms = DEADLINE_MS, what = 'the condition'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([pending, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
