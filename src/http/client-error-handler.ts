// Requests Node's HTTP parser refuses before fastify sees them: a malformed request line or
// header (400), headers larger than the server's maxHeaderSize (431), a request not received
// within the server's request or headers timeout (408; a connection that sent nothing at all is
// closed without an answer). There is no request or reply object
// then, so the answer is written to the socket (as fastify's default handler and Node's own do),
// but as a Status like every other error body; the connection then closes, its parser being lost.

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { statusOf } from '../apimachinery/status.js';
import { AppError } from '../errors.js';

/** ClientError is the error of Node's server 'clientError' event. */
export interface ClientError extends Error {
  readonly code?: string;
}

/** clientErrorHandler makes fastify's `clientErrorHandler` option; each refusal is logged at info, as a client's mistake. */
export function clientErrorHandler(log: FastifyBaseLogger): (error: ClientError, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // A connection that sent nothing before the headers timeout (Node's timeout covers a
    // connection opened and left unused too: a client's spare pooled connection) has no request to
    // answer. A 408 written there would wait in the client's socket buffer until the client sent
    // its next request on that connection and read the 408 as that request's answer (the bench's
    // fetch did, after a minute of wrk load). Go's server closes such a connection silently too; a
    // closed idle connection is what keep-alive clients handle.
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && socket.bytesRead === 0) {
      socket.destroy();
      return;
    }
    const refusal = refusalOf(error);
    // Not the error itself: its rawPacket holds the request's bytes, credentials included.
    log.info({ err: { type: error.name, message: error.message, code: error.code }, statusCode: refusal.httpStatus }, 'malformed request refused');
    if (socket.writable && !responseUnderWay(socket)) socket.write(rawResponse(refusal));
    socket.destroySoon();
  };
}

/** refusalOf names the client's mistake, from the parser's error code. */
function refusalOf(error: ClientError): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('RequestHeaderFieldsTooLarge', 'the request\'s headers are larger than the server accepts');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('RequestTimeout', 'the request was not received in time');
    default:
      return new AppError('BadRequest', `malformed HTTP request: ${error.message}`);
  }
}

/**
 * responseUnderWay: the socket already carries a response whose head was sent (a pipelined
 * request failed to parse behind it); writing now would corrupt it, as Node's own handler knows.
 * `_httpMessage` is how Node ties a socket to its current response.
 */
function responseUnderWay(socket: Socket): boolean {
  return (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
}

function rawResponse(error: AppError): string {
  const body = JSON.stringify(statusOf(error));
  return `HTTP/1.1 ${error.httpStatus} ${STATUS_CODES[error.httpStatus] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
