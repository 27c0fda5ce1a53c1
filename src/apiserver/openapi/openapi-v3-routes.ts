// The OpenAPI v3 endpoints of one mount, the way kube-apiserver serves them:
// - GET /openapi/v3 is the index, `{"paths": {"api/v1": {"serverRelativeURL": "...?hash=H"}, ...}}`;
// - GET /openapi/v3/api/v1 and /openapi/v3/apis/{group}/{version} are the documents, with ETag H
//   (upper-case hex SHA-512 of the JSON). Asked with ?hash=H, the answer may be cached for good;
//   asked with a stale hash, it redirects (301) to the current one.
// The serverRelativeURL carries this mount's prefix (`/clusters/{cluster}`), read from the request,
// because clients resolve it against the server's host, not against their base path.
// Only JSON is served: a client that accepts nothing else (the protobuf form) gets 406.

import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { notFoundPath } from '../request-target.js';
import type { ResourceInfo } from '../resource-info.js';
import { groupVersionDocument, groupVersionKey, servedGroupVersions } from './group-version-document.js';

/** OpenApiV3Options are what the endpoints need from the mount. */
export interface OpenApiV3Options {
  /** resourcesOf lists what the request's logical cluster serves. */
  readonly resourcesOf: (req: FastifyRequest) => readonly ResourceInfo[];
  /** serverVersion fills the documents' info.version. */
  readonly serverVersion: string;
}

/** registerOpenApiV3 adds the /openapi/v3 routes to a (prefixed) API server scope. */
export function registerOpenApiV3(app: FastifyInstance, opts: OpenApiV3Options): void {
  app.get('/openapi/v3', async (req, reply) => {
    requireJson(req);
    const prefix = mountPrefix(req, 2);
    const resources = opts.resourcesOf(req);
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const { group, version } of servedGroupVersions(resources)) {
      const body = serialize(groupVersionDocument(resources, group, version, opts.serverVersion) ?? {});
      paths[groupVersionKey(group, version)] = { serverRelativeURL: documentUrl(prefix, group, version, etagOf(body)) };
    }
    return sendJson(req, reply, serialize({ paths }));
  });
  const document = (req: FastifyRequest, reply: FastifyReply, group: string, version: string, segments: number): FastifyReply => {
    requireJson(req);
    const doc = groupVersionDocument(opts.resourcesOf(req), group, version, opts.serverVersion);
    if (doc === undefined) throw notFoundPath();
    const body = serialize(doc);
    const etag = etagOf(body);
    const asked = (req.query as Record<string, unknown> | undefined)?.['hash'];
    if (typeof asked === 'string' && asked !== '' && asked !== etag) {
      return reply.redirect(documentUrl(mountPrefix(req, segments), group, version, etag), 301);
    }
    if (typeof asked === 'string' && asked !== '') {
      reply.header('Cache-Control', 'public, immutable');
      reply.header('Expires', new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString());
    }
    return sendJson(req, reply, body);
  };
  app.get('/openapi/v3/api/v1', async (req, reply) => document(req, reply, '', 'v1', 4));
  app.get('/openapi/v3/apis/:group/:version', async (req, reply) => {
    const { group = '', version = '' } = req.params as Record<string, string>;
    return document(req, reply, group, version, 5);
  });
}

/** acceptsJson tells whether an Accept header admits application/json (no header admits anything). */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((clause) => {
    const [range = '', ...params] = clause.split(';').map((part) => part.trim().toLowerCase());
    const refused = params.some((p) => /^q\s*=\s*0(\.0*)?$/.test(p));
    return !refused && (range === 'application/json' || range === 'application/*' || range === '*/*');
  });
}

/** etagOf is kube-apiserver's OpenAPI v3 ETag of a serialized document: upper-case hex SHA-512. */
export function etagOf(body: string): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

/**
 * mountPrefix is the request path before the route's own segments (`segments` of them, counting
 * `openapi` and `v3`), as the client sent it: `/clusters/root` for `/clusters/root/openapi/v3`.
 */
export function mountPrefix(req: Pick<FastifyRequest, 'url'>, segments: number): string {
  const path = req.url.split('?')[0] ?? '';
  const parts = path.split('/');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts.slice(0, Math.max(0, parts.length - segments)).join('/');
}

function documentUrl(prefix: string, group: string, version: string, etag: string): string {
  return `${prefix}/openapi/v3/${groupVersionKey(group, version)}?hash=${etag}`;
}

function requireJson(req: FastifyRequest): void {
  if (!acceptsJson(req.headers.accept)) {
    throw new AppError('NotAcceptable', `only application/json is served here, not ${JSON.stringify(req.headers.accept)}`);
  }
}

function serialize(value: unknown): string {
  return JSON.stringify(value);
}

function sendJson(req: FastifyRequest, reply: FastifyReply, body: string): FastifyReply {
  const etag = etagOf(body);
  reply.header('Vary', 'Accept');
  reply.header('ETag', `"${etag}"`);
  const ifNoneMatch = req.headers['if-none-match'];
  const matches = (tag: string): boolean => tag === '*' || tag.replace(/^W\//, '') === `"${etag}"`;
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => matches(tag.trim()))) {
    return reply.code(304).send();
  }
  return reply.type('application/json').send(body);
}
