// The WebSocket transport of GraphQL subscriptions. @fastify/websocket is registered here, before
// mercurius (which then uses it instead of registering its own), so that the WebSocket server is
// ours to configure: frames over maxMessageBytes are refused by ws with 1009 before they are read,
// only the graphql-transport-ws subprotocol is offered, and every socket is of a WebSocket class
// whose received messages pass through the subscription gate before mercurius' listener hears them.
// ws lets a server choose its WebSocket class (option `WebSocket`, "must extend the original").

import type { IncomingMessage } from 'node:http';
import fastifyWebsocket from '@fastify/websocket';
import type { WebsocketPluginOptions } from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import WebSocket from 'ws';
import type { RawData } from 'ws';
import type { SubscriptionGate } from './subscription-gate.js';

/** GatedClass is the type of the server's `WebSocket` option. */
type GatedClass = NonNullable<WebsocketPluginOptions['options']>['WebSocket'];

/** GRAPHQL_TRANSPORT_WS is the one subprotocol served (the `graphql-ws` client's). */
export const GRAPHQL_TRANSPORT_WS = 'graphql-transport-ws';

/** registerSubscriptionTransport registers the WebSocket server on the GraphQL plugin's instance. */
export async function registerSubscriptionTransport(fastify: FastifyInstance, gate: SubscriptionGate, maxMessageBytes: number): Promise<void> {
  await fastify.register(fastifyWebsocket, {
    options: {
      maxPayload: maxMessageBytes,
      WebSocket: gatedWebSocketClass(gate),
      handleProtocols: (protocols) => (protocols.has(GRAPHQL_TRANSPORT_WS) ? GRAPHQL_TRANSPORT_WS : false),
    },
    errorHandler: onSocketError,
  });
  // Emitted by @fastify/websocket as soon as the upgrade completes, before the route's handler
  // (mercurius) is given the socket, so no message can arrive first.
  fastify.websocketServer.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    gate.open(socket, request.headers.authorization);
  });
}

/** gatedWebSocketClass is a WebSocket whose 'message' events are those the gate admits. */
function gatedWebSocketClass(gate: SubscriptionGate): GatedClass {
  class GatedWebSocket extends WebSocket {
    override emit(event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'message' && !gate.admit(this, args[0] as RawData)) return false;
      return super.emit(event, ...args);
    }
  }
  // @types/ws types the option as the class merged with the module's namespace (Server,
  // createWebSocketStream, ...); ws only constructs it, which a subclass supports.
  return GatedWebSocket as unknown as GatedClass;
}

/**
 * onSocketError: a protocol error (a frame over maxPayload, an invalid frame) was already answered
 * by ws with its close code and ws ends the connection itself; terminating here, as the default
 * handler does, could cut the close frame off. Anything else ends the socket at once.
 */
function onSocketError(error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
    request.log.info({ err: error }, 'websocket closed for a protocol error');
    return;
  }
  request.log.error({ err: error }, 'websocket error');
  socket.terminate();
}
