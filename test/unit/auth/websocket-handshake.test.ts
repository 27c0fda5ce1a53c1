// isWebSocketHandshake: only a GET that Node dispatched as an upgrade, with every header of a valid
// handshake, is one (the auth hook lets only those through without a token).

import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isWebSocketHandshake } from '../../../src/auth/websocket-handshake.js';

const VALID = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' };

/** message builds a request head as Node's parser would: method, headers and its upgrade flag. */
function message(method: string, headers: Record<string, string>, upgrade: boolean): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.headers = headers;
  (req as IncomingMessage & { upgrade: boolean }).upgrade = upgrade;
  return req;
}

describe('isWebSocketHandshake', () => {
  it.each([
    ['case 1: a valid handshake dispatched as an upgrade', 'GET', VALID, true, true],
    ['case 2: Connection lists upgrade among other tokens', 'GET', { ...VALID, connection: 'keep-alive, Upgrade' }, true, true],
    ['case 3: not dispatched as an upgrade (Node handles it as plain HTTP)', 'GET', VALID, false, false],
    ['case 4: only an Upgrade header', 'GET', { upgrade: 'websocket' }, true, false],
    ['case 5: a POST', 'POST', VALID, true, false],
    ['case 6: HEAD', 'HEAD', VALID, true, false],
    ['case 7: another protocol', 'GET', { ...VALID, upgrade: 'h2c' }, true, false],
    ['case 8: Connection without upgrade', 'GET', { ...VALID, connection: 'keep-alive' }, true, false],
    ['case 9: no Sec-WebSocket-Key', 'GET', { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13' }, true, false],
    ['case 10: a key that is not 16 bytes of base64', 'GET', { ...VALID, 'sec-websocket-key': 'short' }, true, false],
    ['case 11: version 8', 'GET', { ...VALID, 'sec-websocket-version': '8' }, true, false],
  ])('%s → %s', (_name, method, headers, upgrade, expected) => {
    expect(isWebSocketHandshake(message(method, headers, upgrade))).toBe(expected);
  });
});
