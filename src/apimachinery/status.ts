// The Kubernetes Status object (kind Status, apiVersion v1) that every HTTP error body is, on
// every API, and that deletes return. Empty details fields are left out, as Go's omitempty does,
// so responses compare byte-for-byte with a real API server's. sendStatus is the one writer of
// an error reply, and sendError the error handler every route uses: whatever a route throws is
// answered by it (GraphQL's own endpoint excepted, whose protocol has its own error shape).

import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_TABLE, toAppError } from '../errors.js';
import type { AppError, StatusCause } from '../errors.js';

/** KubeStatusDetails is a Status's details: what object the status is about, and why. */
export interface KubeStatusDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly uid?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

/** KubeStatus is a metav1.Status as serialised on the wire. */
export interface KubeStatus {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Readonly<Record<string, never>>;
  readonly status: 'Success' | 'Failure';
  readonly message?: string;
  readonly reason?: string;
  readonly details?: KubeStatusDetails;
  readonly code?: number;
}

/** statusOf renders an AppError as a failure Status with its HTTP code and reason. */
export function statusOf(err: AppError): KubeStatus {
  // Every ErrorCode is spelled like the Kubernetes StatusReason it stands for.
  const reason: string = err.code;
  const details = compactDetails(err.details);
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: err.message,
    reason,
    ...(details === undefined ? {} : { details }),
    code: ERROR_TABLE[err.code].httpStatus,
  };
}

/**
 * sendStatus answers a failure as a Status with the HTTP code of its reason, and Retry-After when
 * the error says when to retry.
 */
export function sendStatus(reply: FastifyReply, error: AppError): FastifyReply {
  return reply.send(readyStatusReply(reply, error));
}

/**
 * readyStatusReply sets the status line and headers of error's reply and returns the Status to
 * send, for the callers that hand the body to someone else to send (load shedding's handler).
 */
export function readyStatusReply(reply: FastifyReply, error: AppError): KubeStatus {
  const retryAfterSeconds = error.details.retryAfterSeconds;
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
  reply.code(error.httpStatus).type('application/json');
  return statusOf(error);
}

/**
 * sendError is the error handler of every route: anything thrown is answered as a Status. A
 * server fault (5xx) is logged at error, with the error under `err` (its message is hidden from
 * the client); a client's mistake is not logged here: the request's own line carries its status.
 * A 5xx that tells the client to retry later (Retry-After: a version not reached yet, a wait past
 * its bound, shedding) is the service working as documented, so it is a warning.
 */
export function sendError(thrown: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const error = toAppError(thrown);
  if (error.httpStatus >= 500 && error.details.retryAfterSeconds !== undefined) req.log.warn({ err: thrown }, 'request answered: retry later');
  else if (error.httpStatus >= 500) req.log.error({ err: thrown }, 'request failed');
  return sendStatus(reply, error);
}

/** successStatus is the Success Status returned by deletes, with optional details. */
export function successStatus(details?: KubeStatusDetails): KubeStatus {
  const compact = details === undefined ? undefined : compactDetails(details);
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    ...(compact === undefined ? {} : { details: compact }),
  };
}

// Keeps only the set fields; undefined when nothing is left.
function compactDetails(details: KubeStatusDetails): KubeStatusDetails | undefined {
  const out: { -readonly [K in keyof KubeStatusDetails]: KubeStatusDetails[K] } = {};
  if (details.name) out.name = details.name;
  if (details.group) out.group = details.group;
  if (details.kind) out.kind = details.kind;
  if (details.uid) out.uid = details.uid;
  if (details.causes !== undefined && details.causes.length > 0) out.causes = details.causes;
  if (details.retryAfterSeconds) out.retryAfterSeconds = details.retryAfterSeconds;
  return Object.keys(out).length === 0 ? undefined : out;
}
