// The one error type of cachegate. Every failure a user can see is an AppError with a code from
// a closed set; ERROR_TABLE is the only place that decides what a code means on the wire (HTTP
// status, Kubernetes Status reason, GraphQL extensions.code), both ways: codeOfHttpStatus reads
// it backwards for an HTTP status that comes without a reason (a framework's error, a source's
// answer that is not a Status). Anything else thrown is normalised at the boundary by toAppError
// and reported as InternalError with its message hidden.

/**
 * ErrorCode is the closed set of error codes, named after Kubernetes Status reasons. Kubernetes
 * has none for 408 and 431 (Go's HTTP server answers those itself, without a Status): those two
 * are named as Go's http.StatusText names them.
 */
export type ErrorCode =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestTimeout'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Expired'
  | 'Gone'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'Invalid'
  | 'TooManyRequests'
  | 'RequestHeaderFieldsTooLarge'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout';

/** ErrorMeaning is how one code is presented to HTTP, Kubernetes and GraphQL clients. */
export interface ErrorMeaning {
  readonly httpStatus: number;
  readonly graphqlCode: string;
  /**
   * namedOnly: only an answer that names this reason means it. Two reasons share 409 and 410;
   * a bare 409 is Conflict (AlreadyExists is said by name), and a bare 410 is Gone, since
   * kube-apiserver says Expired by name for a resourceVersion or continue token it no longer has.
   */
  readonly namedOnly?: true;
}

/** ERROR_TABLE maps every code to its HTTP status and GraphQL extensions.code. */
export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorMeaning>> = Object.freeze({
  BadRequest: { httpStatus: 400, graphqlCode: 'BAD_REQUEST' },
  Unauthorized: { httpStatus: 401, graphqlCode: 'UNAUTHENTICATED' },
  Forbidden: { httpStatus: 403, graphqlCode: 'FORBIDDEN' },
  NotFound: { httpStatus: 404, graphqlCode: 'NOT_FOUND' },
  MethodNotAllowed: { httpStatus: 405, graphqlCode: 'METHOD_NOT_ALLOWED' },
  NotAcceptable: { httpStatus: 406, graphqlCode: 'NOT_ACCEPTABLE' },
  RequestTimeout: { httpStatus: 408, graphqlCode: 'REQUEST_TIMEOUT' },
  AlreadyExists: { httpStatus: 409, graphqlCode: 'ALREADY_EXISTS', namedOnly: true },
  Conflict: { httpStatus: 409, graphqlCode: 'CONFLICT' },
  Expired: { httpStatus: 410, graphqlCode: 'EXPIRED', namedOnly: true },
  Gone: { httpStatus: 410, graphqlCode: 'GONE' },
  RequestEntityTooLarge: { httpStatus: 413, graphqlCode: 'PAYLOAD_TOO_LARGE' },
  UnsupportedMediaType: { httpStatus: 415, graphqlCode: 'UNSUPPORTED_MEDIA_TYPE' },
  Invalid: { httpStatus: 422, graphqlCode: 'INVALID' },
  TooManyRequests: { httpStatus: 429, graphqlCode: 'TOO_MANY_REQUESTS' },
  RequestHeaderFieldsTooLarge: { httpStatus: 431, graphqlCode: 'REQUEST_HEADER_FIELDS_TOO_LARGE' },
  InternalError: { httpStatus: 500, graphqlCode: 'INTERNAL_SERVER_ERROR' },
  ServiceUnavailable: { httpStatus: 503, graphqlCode: 'SERVICE_UNAVAILABLE' },
  Timeout: { httpStatus: 504, graphqlCode: 'TIMEOUT' },
});

/** isErrorCode tells whether a string (a Status's reason) is one of the codes. */
export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_TABLE, value);
}

/**
 * codeOfHttpStatus is the code an HTTP status means when nothing names a reason: the table's
 * entry for it, else BadRequest for another 4xx and InternalError for anything else.
 */
export function codeOfHttpStatus(httpStatus: number): ErrorCode {
  for (const [code, meaning] of Object.entries(ERROR_TABLE) as [ErrorCode, ErrorMeaning][]) {
    if (meaning.httpStatus === httpStatus && meaning.namedOnly !== true) return code;
  }
  return httpStatus >= 400 && httpStatus < 500 ? 'BadRequest' : 'InternalError';
}

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

/**
 * toAppError normalises anything thrown into an AppError, keeping the original as its cause.
 * Errors that carry an HTTP statusCode below 500 (fastify's own: invalid JSON, unsupported media
 * type, body too large) keep their message, since it describes the client's mistake, and take
 * the code of that status; 503 and 504 keep theirs too. Anything else becomes an InternalError
 * whose message is hidden.
 */
export function toAppError(value: unknown): AppError {
  if (value instanceof AppError) return value;
  const statusCode = typeof value === 'object' && value !== null ? (value as { statusCode?: unknown }).statusCode : undefined;
  const code = typeof statusCode === 'number' ? codeOfHttpStatus(statusCode) : 'InternalError';
  if (code !== 'InternalError' && value instanceof Error) return new AppError(code, value.message, {}, { cause: value });
  return new AppError('InternalError', 'an internal error occurred', {}, { cause: value });
}
