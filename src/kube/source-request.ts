// One JSON request to a source, with the source's failures turned into AppErrors: a Status
// answer keeps its reason and message (a 409 from the source stays a 409 with the source's
// words), and an unreachable source is ServiceUnavailable naming the source.

import { AppError, ERROR_TABLE } from '../errors.js';
import type { ErrorCode, ErrorDetails, StatusCause } from '../errors.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { SourceConnection } from './source-connection.js';
import type { TransportRequest } from './source-transport.js';

/** CODE_BY_HTTP_STATUS is used when a failure carries no reason we know. */
const CODE_BY_HTTP_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed',
  406: 'NotAcceptable', 409: 'Conflict', 410: 'Expired', 413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType', 422: 'Invalid', 429: 'TooManyRequests', 503: 'ServiceUnavailable', 504: 'Timeout',
};

/** sourceRequest sends a request to a source and returns its parsed JSON answer, or throws an AppError. */
export async function sourceRequest(source: SourceConnection, req: TransportRequest): Promise<unknown> {
  let res;
  try {
    res = await source.transport.send(req);
  } catch (err) {
    if (req.signal?.aborted) throw err;
    throw unreachable(source, err);
  }
  const body = parseJson(res.body);
  if (res.status < 200 || res.status > 299) throw statusError(source, res.status, body, res.body);
  if (body === undefined) {
    throw new AppError('InternalError', `source ${source.name} answered ${req.method} ${req.path} with a body that is not JSON`);
  }
  return body;
}

/** unreachable is the error of a source that could not be reached at all. */
export function unreachable(source: SourceConnection, err: unknown): AppError {
  const why = err instanceof Error ? err.message : String(err);
  return new AppError('ServiceUnavailable', `source ${source.name} is unreachable: ${why}`, {}, { cause: err });
}

/** statusError turns a non-2xx answer into an AppError, preferring the Status's own reason and message. */
export function statusError(source: SourceConnection, httpStatus: number, body: unknown, text: string): AppError {
  if (isPlainObject(body) && body['kind'] === 'Status') {
    const reason = typeof body['reason'] === 'string' ? body['reason'] : '';
    const code = isErrorCode(reason) ? reason : codeOfHttpStatus(httpStatus);
    const message = typeof body['message'] === 'string' ? body['message'] : `source ${source.name} answered HTTP ${httpStatus}`;
    return new AppError(code, message, detailsOf(body['details']));
  }
  const excerpt = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return new AppError(codeOfHttpStatus(httpStatus), `source ${source.name} answered HTTP ${httpStatus}: ${excerpt}`);
}

/** codeOfHttpStatus picks a code for an HTTP status: the usual one for 4xx, InternalError for other 5xx. */
function codeOfHttpStatus(status: number): ErrorCode {
  return CODE_BY_HTTP_STATUS[status] ?? (status >= 400 && status < 500 ? 'BadRequest' : 'InternalError');
}

function isErrorCode(reason: string): reason is ErrorCode {
  return Object.hasOwn(ERROR_TABLE, reason);
}

/** detailsOf keeps the Status details fields AppError carries. */
function detailsOf(details: unknown): ErrorDetails {
  if (!isPlainObject(details)) return {};
  const str = (key: string): string | undefined => (typeof details[key] === 'string' ? details[key] as string : undefined);
  const causes = Array.isArray(details['causes']) ? details['causes'].filter(isCause) : undefined;
  const out: { -readonly [K in keyof ErrorDetails]: ErrorDetails[K] } = {};
  const name = str('name');
  const group = str('group');
  const kind = str('kind');
  if (name) out.name = name;
  if (group) out.group = group;
  if (kind) out.kind = kind;
  if (causes && causes.length > 0) out.causes = causes;
  if (typeof details['retryAfterSeconds'] === 'number') out.retryAfterSeconds = details['retryAfterSeconds'];
  return out;
}

function isCause(value: unknown): value is StatusCause {
  return isPlainObject(value) && typeof value['reason'] === 'string' && typeof value['message'] === 'string'
    && (value['field'] === undefined || typeof value['field'] === 'string');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
