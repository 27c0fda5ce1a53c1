// One JSON request to a source, with the source's failures turned into AppErrors: a Status
// answer keeps its reason and message (a 409 from the source stays a 409 with the source's
// words), an answer that names no reason we know takes the code of its HTTP status from the one
// error table (a bare 410 is Gone, a bare 409 Conflict), and an unreachable source is
// ServiceUnavailable naming the source.

import { AppError, codeOfHttpStatus, isErrorCode } from '../errors.js';
import type { ErrorDetails, StatusCause } from '../errors.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import type { SourceConnection } from './source-connection.js';
import type { TransportRequest } from './source-transport.js';

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
