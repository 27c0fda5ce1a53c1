// The gate in front of mercurius' graphql-transport-ws handler. Every message a GraphQL WebSocket
// receives passes here first (subscription-transport.ts hands it over before mercurius sees it),
// so nothing a connection sends is parsed as GraphQL before the connection is authenticated and
// within its limits. mercurius acknowledges any connection_init and parses a subscribe document
// with no token bound, which let an anonymous client stall the event loop with 1 MB documents.
//
// Per connection, in order:
// 1. a token bucket of messages (messagesPerSecond, messageBurst): a flood closes it with 1008;
//    a frame over maxMessageBytes was already closed by ws with 1009;
// 2. a message that is not a graphql-transport-ws message closes it with 4400;
// 3. connection_init must come within initTimeoutMs (else 4408), only once (else 4429), and, with
//    auth on, carry a known token in its payload or follow an upgrade request that had one
//    (else 4403); a subscribe before that is 4401;
// 4. a subscribe document over the size limits (document-source.ts, the same check as over HTTP)
//    is answered with an `error` message for its id and never reaches mercurius.

import type { RawData, WebSocket } from 'ws';
import { authenticateConnection } from '../auth/connection-credentials.js';
import type { Principal } from '../auth/principal.js';
import { TokenBucketLimiter } from '../auth/rate-limiter.js';
import type { TokenAuthenticator } from '../auth/token-authenticator.js';
import { checkDocumentSource } from './document-source.js';
import type { QueryLimits } from './query-limits.js';

/** CLOSE_CODES are the close codes a GraphQL WebSocket may end with (graphql-transport-ws, RFC 6455). */
export const CLOSE_CODES = Object.freeze({
  /** messageRate (1008 Policy Violation): more messages than the connection's rate allows. */
  messageRate: 1008,
  /** messageTooBig (1009): a frame over maxMessageBytes; ws closes with it before reading the frame. */
  messageTooBig: 1009,
  badRequest: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  initTimeout: 4408,
  tooManyInits: 4429,
});

/** ConnectionLimits bound what one WebSocket connection may send. */
export interface ConnectionLimits {
  readonly maxMessageBytes: number;
  readonly messagesPerSecond: number;
  readonly messageBurst: number;
  readonly initTimeoutMs: number;
}

/**
 * DEFAULT_CONNECTION_LIMITS: a frame twice the largest document; 10 messages/s with bursts of 30
 * (a subscribe within every document limit still costs up to tens of ms to parse and validate, so
 * the burst bounds how long one connection can hold the event loop); 10 s to send connection_init.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = Object.freeze({
  maxMessageBytes: 128 * 1024,
  messagesPerSecond: 10,
  messageBurst: 30,
  initTimeoutMs: 10_000,
});

/** SubscriptionGateOptions: the connection and document limits; authenticator turns auth on. */
export interface SubscriptionGateOptions {
  readonly limits: ConnectionLimits;
  readonly documentLimits: Pick<QueryLimits, 'maxDocumentBytes' | 'maxTokens'>;
  readonly authenticator?: TokenAuthenticator;
}

interface Connection {
  phase: 'awaiting-init' | 'ready' | 'closed';
  principal: Principal | null;
  readonly upgradeAuthorization: string | undefined;
  readonly initTimer: NodeJS.Timeout;
}

/** GateMessage is a message of graphql-transport-ws, with the fields the gate reads. */
interface GateMessage {
  readonly type: string;
  readonly id?: string;
  readonly payload?: Record<string, unknown> | null;
}

/** SubscriptionGate admits or refuses each message of the app's GraphQL WebSockets. */
export class SubscriptionGate {
  readonly #connections = new WeakMap<WebSocket, Connection>();
  readonly #rate: TokenBucketLimiter<WebSocket>;

  constructor(private readonly options: SubscriptionGateOptions) {
    this.#rate = new TokenBucketLimiter({ requestsPerSecond: options.limits.messagesPerSecond, burst: options.limits.messageBurst });
  }

  /** open starts guarding a socket just upgraded; upgradeAuthorization is its upgrade request's header. */
  open(socket: WebSocket, upgradeAuthorization: string | undefined): void {
    const initTimer = setTimeout(() => this.#close(socket, CLOSE_CODES.initTimeout, 'Connection initialisation timeout'), this.options.limits.initTimeoutMs);
    initTimer.unref();
    const connection: Connection = { phase: 'awaiting-init', principal: null, upgradeAuthorization, initTimer };
    this.#connections.set(socket, connection);
    socket.once('close', () => {
      connection.phase = 'closed';
      clearTimeout(initTimer);
    });
  }

  /** principalOf is who an initialised connection acts as (null: auth off). */
  principalOf(socket: WebSocket): Principal | null {
    return this.#connections.get(socket)?.principal ?? null;
  }

  /** admit is true when mercurius may handle this message; false when the gate answered or closed. */
  admit(socket: WebSocket, data: RawData): boolean {
    const connection = this.#connections.get(socket);
    if (connection === undefined || connection.phase === 'closed') return false;
    if (this.#rate.take(socket) > 0) return this.#close(socket, CLOSE_CODES.messageRate, 'Message rate exceeded');
    const message = readMessage(data);
    if (message === undefined) return this.#close(socket, CLOSE_CODES.badRequest, 'Invalid message received');
    switch (message.type) {
      case 'connection_init':
        return this.#init(socket, connection, message.payload);
      case 'subscribe':
        if (connection.phase !== 'ready') return this.#close(socket, CLOSE_CODES.unauthorized, 'Unauthorized');
        return this.#subscribe(socket, message);
      default:
        return true; // ping, pong, complete
    }
  }

  #init(socket: WebSocket, connection: Connection, payload: GateMessage['payload']): boolean {
    if (connection.phase === 'ready') return this.#close(socket, CLOSE_CODES.tooManyInits, 'Too many initialisation requests');
    const { authenticator } = this.options;
    if (authenticator !== undefined) {
      const principal = authenticateConnection(authenticator, payload, connection.upgradeAuthorization);
      if (principal === undefined) return this.#close(socket, CLOSE_CODES.forbidden, 'Forbidden');
      connection.principal = principal;
    }
    connection.phase = 'ready';
    clearTimeout(connection.initTimer);
    return true;
  }

  #subscribe(socket: WebSocket, message: GateMessage): boolean {
    const rejection = checkDocumentSource(message.payload?.['query'] as string, this.options.documentLimits);
    if (rejection === undefined) return true;
    socket.send(JSON.stringify({ id: message.id, type: 'error', payload: [rejection.error] }));
    return false;
  }

  #close(socket: WebSocket, code: number, reason: string): false {
    const connection = this.#connections.get(socket);
    if (connection !== undefined) {
      connection.phase = 'closed';
      clearTimeout(connection.initTimer);
    }
    socket.close(code, reason);
    return false;
  }
}

/** readMessage parses a graphql-transport-ws message; undefined when it is not one. */
function readMessage(data: RawData): GateMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(textOf(data));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, id, payload } = value as Record<string, unknown>;
  if (payload !== undefined && payload !== null && (typeof payload !== 'object' || Array.isArray(payload))) return undefined;
  const message = { type, id, payload } as GateMessage;
  switch (type) {
    case 'connection_init':
    case 'ping':
    case 'pong':
      return message;
    case 'complete':
      return isId(id) ? message : undefined;
    case 'subscribe':
      return isId(id) && typeof message.payload?.['query'] === 'string' ? message : undefined;
    default:
      return undefined;
  }
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

function isId(id: unknown): id is string {
  return typeof id === 'string' && id !== '';
}
