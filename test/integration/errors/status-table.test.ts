// The one table of reasons and HTTP codes, read both ways:
//   case 1: every reason has its HTTP code, and every code of the table means exactly one reason
//           when nothing names one (409 → Conflict, 410 → Gone; AlreadyExists and Expired only by name);
//   case 2: a code outside the table is BadRequest (4xx) or InternalError (anything else);
//   case 3: a source's failures, over real HTTP, keep the reason their Status names, and take the
//           table's reason for their code when they name none (or one that is not a reason).

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TABLE, codeOfHttpStatus, isAppError } from '../../../src/errors.js';
import type { ErrorCode } from '../../../src/errors.js';
import { embeddedSource } from '../../../src/kube/source-connection.js';
import { sourceRequest } from '../../../src/kube/source-request.js';

describe('the error table', () => {
  it('case 1: every reason has its HTTP code, and each code means one reason when none is named', () => {
    for (const [code, meaning] of Object.entries(ERROR_TABLE) as [ErrorCode, (typeof ERROR_TABLE)[ErrorCode]][]) {
      const implied = codeOfHttpStatus(meaning.httpStatus);
      expect(ERROR_TABLE[implied].httpStatus, code).toBe(meaning.httpStatus);
      if (meaning.namedOnly !== true) expect(implied, code).toBe(code);
    }
    expect(codeOfHttpStatus(409)).toBe('Conflict');
    expect(codeOfHttpStatus(410)).toBe('Gone');
    expect(codeOfHttpStatus(431)).toBe('RequestHeaderFieldsTooLarge');
  });

  it('case 2: a code outside the table is BadRequest for 4xx, InternalError otherwise', () => {
    expect([418, 451].map(codeOfHttpStatus)).toEqual(['BadRequest', 'BadRequest']);
    expect([500, 502, 301].map(codeOfHttpStatus)).toEqual(['InternalError', 'InternalError', 'InternalError']);
  });
});

/** ANSWERS are what the source server below answers, by path: [HTTP status, body]. */
const ANSWERS: Readonly<Record<string, readonly [number, string]>> = {
  '/expired': [410, JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', message: 'too old resource version: 1 (5)', code: 410 })],
  '/unknown-reason': [410, JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'SomethingNew', message: 'gone away', code: 410 })],
  '/bare-410': [410, 'gone'],
  '/already-exists': [409, JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'AlreadyExists', message: 'configmaps "a" already exists', code: 409 })],
  '/bare-409': [409, 'conflict'],
  '/bare-502': [502, 'bad gateway'],
};

describe('a source\'s failures', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const [status, body] = ANSWERS[req.url ?? ''] ?? [404, 'no such path'];
      res.writeHead(status, { 'content-type': body.startsWith('{') ? 'application/json' : 'text/plain' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['/expired', 'Expired', 'too old resource version: 1 (5)'],
    ['/unknown-reason', 'Gone', 'gone away'],
    ['/bare-410', 'Gone', 'answered HTTP 410: gone'],
    ['/already-exists', 'AlreadyExists', 'configmaps "a" already exists'],
    ['/bare-409', 'Conflict', 'answered HTTP 409: conflict'],
    ['/bare-502', 'InternalError', 'answered HTTP 502: bad gateway'],
  ])('case 3: %s is %s', async (path, code, message) => {
    const err: unknown = await sourceRequest(embeddedSource(baseUrl), { method: 'GET', path }).then(() => undefined, (rejection: unknown) => rejection);
    expect(isAppError(err, code as ErrorCode), String(err)).toBe(true);
    expect((err as Error).message).toContain(message);
  });
});
