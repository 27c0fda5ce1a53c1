// The one error type of cachegate. Every failure a user can see is an AppError with a code from
// a closed set; ERROR_TABLE is the only place that decides what a code means on the wire (HTTP
// status, Kubernetes Status reason, GraphQL extensions.code). Anything else thrown is normalised
// at the boundary by toAppError and reported as InternalError with its message hidden.

/** ErrorCode is the closed set of error codes, named after Kubernetes Status reasons. */
export type ErrorCode =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Expired'
  | 'Gone'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'Invalid'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout';

/** ErrorMeaning is how one code is presented to HTTP, Kubernetes and GraphQL clients. */
export interface ErrorMeaning {
  readonly httpStatus: number;
  readonly graphqlCode: string;
}

/** ERROR_TABLE maps every code to its HTTP status and GraphQL extensions.code. */
export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorMeaning>> = Object.freeze({
  BadRequest: { httpStatus: 400, graphqlCode: 'BAD_REQUEST' },
  Unauthorized: { httpStatus: 401, graphqlCode: 'UNAUTHENTICATED' },
  Forbidden: { httpStatus: 403, graphqlCode: 'FORBIDDEN' },
  NotFound: { httpStatus: 404, graphqlCode: 'NOT_FOUND' },
  MethodNotAllowed: { httpStatus: 405, graphqlCode: 'METHOD_NOT_ALLOWED' },
  NotAcceptable: { httpStatus: 406, graphqlCode: 'NOT_ACCEPTABLE' },
  AlreadyExists: { httpStatus: 409, graphqlCode: 'ALREADY_EXISTS' },
  Conflict: { httpStatus: 409, graphqlCode: 'CONFLICT' },
  Expired: { httpStatus: 410, graphqlCode: 'EXPIRED' },
  Gone: { httpStatus: 410, graphqlCode: 'GONE' },
  RequestEntityTooLarge: { httpStatus: 413, graphqlCode: 'PAYLOAD_TOO_LARGE' },
  UnsupportedMediaType: { httpStatus: 415, graphqlCode: 'UNSUPPORTED_MEDIA_TYPE' },
  Invalid: { httpStatus: 422, graphqlCode: 'INVALID' },
  TooManyRequests: { httpStatus: 429, graphqlCode: 'TOO_MANY_REQUESTS' },
  InternalError: { httpStatus: 500, graphqlCode: 'INTERNAL_SERVER_ERROR' },
  ServiceUnavailable: { httpStatus: 503, graphqlCode: 'SERVICE_UNAVAILABLE' },
  Timeout: { httpStatus: 504, graphqlCode: 'TIMEOUT' },
});

/** StatusCause is one field-level reason, as in a Kubernetes Status's details.causes. */
export interface StatusCause {
  readonly reason: string;
  readonly message: string;
  readonly field?: string;
}

/** ErrorDetails names the object an error is about, as in a Kubernetes Status's details. */
export interface ErrorDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

/** AppError is the only error type cachegate raises on purpose. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  /** httpStatus is the HTTP status code of this error's code. */
  get httpStatus(): number {
    return ERROR_TABLE[this.code].httpStatus;
  }
}

/** isAppError tells whether a value is an AppError, optionally of one code. */
export function isAppError(value: unknown, code?: ErrorCode): value is AppError {
  return value instanceof AppError && (code === undefined || value.code === code);
}

/** CLIENT_ERROR_CODES maps the 4xx statuses that frameworks raise (bad JSON, body too large) to codes. */
const CLIENT_ERROR_CODES: Readonly<Record<number, ErrorCode>> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed',
  406: 'NotAcceptable', 409: 'Conflict', 410: 'Gone', 413: 'RequestEntityTooLarge', 415: 'UnsupportedMediaType',
  422: 'Invalid', 429: 'TooManyRequests', 503: 'ServiceUnavailable', 504: 'Timeout',
};

/**
 * toAppError normalises anything thrown into an AppError, keeping the original as its cause.
 * Errors that carry a known statusCode (fastify's own: invalid JSON, unsupported media type,
 * body too large) keep their message, since it describes the client's mistake; anything else
 * becomes an InternalError whose message is hidden.
 */
export function toAppError(value: unknown): AppError {
  if (value instanceof AppError) return value;
  const statusCode = typeof value === 'object' && value !== null ? (value as { statusCode?: unknown }).statusCode : undefined;
  const code = typeof statusCode === 'number' ? CLIENT_ERROR_CODES[statusCode] : undefined;
  if (code && value instanceof Error) return new AppError(code, value.message, {}, { cause: value });
  return new AppError('InternalError', 'an internal error occurred', {}, { cause: value });
}
