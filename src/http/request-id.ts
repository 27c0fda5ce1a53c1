// Request ids from clients (`x-request-id`) are echoed in the response and written in every log
// line of the request, so only a short id of printable ASCII is taken; anything else (a long or
// binary value, a log-injection attempt) is replaced by a generated id.

import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** REQUEST_ID_HEADER carries a client's request id in and the request's id out. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** MAX_REQUEST_ID_LENGTH bounds a client's request id. */
export const MAX_REQUEST_ID_LENGTH = 128;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** isAcceptableRequestId tells whether a client's id may be used: 1–128 characters of printable ASCII. */
export function isAcceptableRequestId(id: string): boolean {
  return id.length <= MAX_REQUEST_ID_LENGTH && PRINTABLE_ASCII.test(id);
}

/** requestIdOf is the client's x-request-id when acceptable, else a fresh UUID. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const sent = headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && isAcceptableRequestId(sent) ? sent : randomUUID();
}
