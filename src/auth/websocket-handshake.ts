// Whether a request is a real WebSocket handshake, the only kind of request the auth hook lets
// through without a token (on /graphql: the token then comes in connection_init, and the GraphQL
// gate closes the socket before it may send a document without one). An `Upgrade: websocket`
// header alone proves nothing: a GET or POST with it but without `Connection: upgrade` is an
// ordinary HTTP request that mercurius answers (it answered introspection without a token).

import type { IncomingMessage } from 'node:http';

/** SEC_WEBSOCKET_KEY is a base64-encoded 16-byte value, as RFC 6455 §4.1 requires (and ws checks). */
const SEC_WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;

/**
 * isWebSocketHandshake is true for a GET with the headers of a valid handshake (`Upgrade:
 * websocket`, `Connection` naming upgrade, a Sec-WebSocket-Key, Sec-WebSocket-Version 13) that
 * Node dispatched as a protocol upgrade: such a request reaches the WebSocket server, never an
 * HTTP handler (Node sets `upgrade` on the requests it hands to the 'upgrade' listeners).
 */
export function isWebSocketHandshake(req: IncomingMessage): boolean {
  if (req.method !== 'GET' || (req as IncomingMessage & { upgrade?: unknown }).upgrade !== true) return false;
  const { headers } = req;
  return headers.upgrade?.toLowerCase() === 'websocket'
    && (headers.connection ?? '').split(',').some((token) => token.trim().toLowerCase() === 'upgrade')
    && SEC_WEBSOCKET_KEY.test(header(headers['sec-websocket-key']))
    && header(headers['sec-websocket-version']).trim() === '13';
}

function header(value: string | string[] | undefined): string {
  return typeof value === 'string' ? value : '';
}
