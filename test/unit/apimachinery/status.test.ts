import { describe, it, expect } from 'vitest';
import { AppError } from '../../../src/errors.js';
import type { ErrorCode } from '../../../src/errors.js';
import { statusOf, successStatus } from '../../../src/apimachinery/status.js';
import { numbered } from './numbered.js';

describe('statusOf', () => {
  const causes = [{ reason: 'FieldValueRequired', message: 'Required value', field: 'metadata.name' }];
  const cases = numbered([
    {
      name: 'NotFound with name and kind',
      err: new AppError('NotFound', 'pods "a" not found', { name: 'a', kind: 'pods' }),
      want: { message: 'pods "a" not found', reason: 'NotFound', code: 404, details: { name: 'a', kind: 'pods' } },
    },
    {
      name: 'Invalid with causes and an empty group left out',
      err: new AppError('Invalid', 'Pod "a" is invalid', { name: 'a', group: '', kind: 'Pod', causes }),
      want: { message: 'Pod "a" is invalid', reason: 'Invalid', code: 422, details: { name: 'a', kind: 'Pod', causes } },
    },
    {
      name: 'Conflict with a group',
      err: new AppError('Conflict', 'conflict', { name: 'd', group: 'apps', kind: 'deployments' }),
      want: { message: 'conflict', reason: 'Conflict', code: 409, details: { name: 'd', group: 'apps', kind: 'deployments' } },
    },
    {
      name: 'TooManyRequests with retryAfterSeconds',
      err: new AppError('TooManyRequests', 'slow down', { retryAfterSeconds: 3 }),
      want: { message: 'slow down', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 3 } },
    },
    { name: 'Gone', err: new AppError('Gone', 'gone'), want: { message: 'gone', reason: 'Gone', code: 410 } },
    { name: 'Expired', err: new AppError('Expired', 'too old resource version'), want: { message: 'too old resource version', reason: 'Expired', code: 410 } },
    { name: 'InternalError without details', err: new AppError('InternalError', 'oops'), want: { message: 'oops', reason: 'InternalError', code: 500 } },
    {
      name: 'empty causes are left out',
      err: new AppError('BadRequest', 'bad', { causes: [] }),
      want: { message: 'bad', reason: 'BadRequest', code: 400 },
    },
  ]);

  it.each(cases)('case $n: $name', ({ err, want }) => {
    const status = statusOf(err);
    expect(status).toStrictEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', ...want });
    expect(JSON.parse(JSON.stringify(status))).toStrictEqual(status);
  });

  const codes: [ErrorCode, number][] = [
    ['Unauthorized', 401],
    ['Forbidden', 403],
    ['MethodNotAllowed', 405],
    ['AlreadyExists', 409],
    ['RequestEntityTooLarge', 413],
    ['UnsupportedMediaType', 415],
    ['ServiceUnavailable', 503],
    ['Timeout', 504],
  ];

  it.each(numbered(codes.map(([code, http]) => ({ code, http }))))('case $n: $code has reason $code and code $http', ({ code, http }) => {
    expect(statusOf(new AppError(code, 'x'))).toMatchObject({ reason: code, code: http, status: 'Failure' });
  });
});

describe('successStatus', () => {
  const cases = numbered([
    { name: 'without details', details: undefined, want: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' } },
    {
      name: 'with delete details',
      details: { name: 'a', kind: 'pods', uid: 'u-1' },
      want: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'a', kind: 'pods', uid: 'u-1' } },
    },
  ]);

  it.each(cases)('case $n: $name', ({ details, want }) => {
    expect(successStatus(details)).toStrictEqual(want);
  });
});
