// Writes: create, replace, patch, delete, the status writer and delete-all-of,
// forwarded to the source by the one write service (which records them in the overlay). URLs and
// parameter schemas come from the OpenAPI document (operations createObject, replaceObject,
// patchObject, deleteObject, replaceObjectStatus, patchObjectStatus, deleteObjects). Answers are
// the source's, with `X-Cachegate-Source: source` and the write's read-your-writes token in
// `X-Cachegate-Resource-Version: <shard>/<cluster>/<group>/<resource>/<resourceVersion>` (a read
// passing it as minResourceVersion waits for that resource only); the source's errors come back
// as its Status said (a 409 stays a 409).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { assertJsonDepth } from '../../apimachinery/json-depth.js';
import { parseYamlBody } from '../../apimachinery/yaml-body.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { minResourceVersionOf } from '../../read/min-resource-version.js';
import type { NamedTarget, PatchType, WriteOptions, WriteResult, WriteService, WriteTarget } from '../../write/write-service.js';
import type { FacadeContext } from './facade-context.js';
import { documentedRoute } from './route-schemas.js';

interface ResourceParams {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

interface NameParams extends ResourceParams {
  readonly name: string;
}

interface WriteQuery {
  readonly cluster: string;
  readonly shard?: string;
  readonly namespace?: string;
  readonly dryRun?: string;
  readonly labelSelector?: string;
  readonly fieldManager?: string;
  readonly force?: boolean;
}

/** PATCH_TYPES maps the accepted PATCH media types to patch formats. */
const PATCH_TYPES: Readonly<Record<string, PatchType>> = Object.freeze({
  'application/merge-patch+json': 'merge',
  'application/json-patch+json': 'json',
  'application/apply-patch+yaml': 'apply',
});

const JSON_TYPE = 'application/json; charset=utf-8';

/** writeRoutes registers the write routes in the /v1 scope. */
export function writeRoutes(api: FastifyInstance, ctx: FacadeContext, prefix: string, bodyLimit: number | undefined): void {
  // kubectl and the client libraries send a DELETE with application/json and no body: an empty
  // JSON body is no body, as kube-apiserver takes it (a create or replace without one is refused
  // by objectOf, naming what is missing).
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string', ...(bodyLimit ? { bodyLimit } : {}) }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(new AppError('BadRequest', `error decoding request body: ${(err as Error).message}`), undefined);
    }
  });
  // Any other media type (fastify's own text/plain parser included) is 415 naming what the verb
  // takes, as the kube-compatible API answers: a body that is not JSON never reaches a handler.
  api.removeContentTypeParser('text/plain');
  api.addContentTypeParser('*', { parseAs: 'buffer', ...(bodyLimit ? { bodyLimit } : {}) }, (req, _body, done) => {
    const accepted = req.method === 'PATCH' ? Object.keys(PATCH_TYPES).join(', ') : 'application/json';
    done(new AppError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted}`), undefined);
  });
  // Patch bodies are JSON; which patch they are is read from the media type in the handler.
  api.addContentTypeParser(Object.keys(PATCH_TYPES), { parseAs: 'string', ...(bodyLimit ? { bodyLimit } : {}) }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    try {
      // An apply configuration may be YAML; the source gets it as JSON, which is YAML too.
      done(null, PATCH_TYPES[mediaTypeOf(req)] === 'apply' ? parseYamlBody(text) : JSON.parse(text));
    } catch (err) {
      done(err instanceof AppError ? err : new AppError('BadRequest', `error decoding patch: ${(err as Error).message}`), undefined);
    }
  });
  const route = <P extends ResourceParams>(operationId: string, handler: (req: FastifyRequest<{ Params: P; Querystring: WriteQuery }>, reply: FastifyReply, write: WriteService) => Promise<unknown>): void => {
    const documented = documentedRoute(ctx.document, operationId, prefix);
    api.route<{ Params: P; Querystring: WriteQuery }>({
      method: documented.method,
      url: documented.url,
      schema: documented.schema,
      ...(bodyLimit ? { bodyLimit } : {}),
      handler: async (req, reply) => {
        const write = ctx.writeOf(req);
        if (write === undefined) throw new AppError('MethodNotAllowed', 'writes are not configured on this cachegate');
        // Bodies are forwarded to the source through JSON.stringify, which recurses.
        assertJsonDepth(req.body);
        return handler(req, reply, write);
      },
    });
  };

  route<ResourceParams>('createObject', async (req, reply, write) => {
    const result = await write.create(targetOf(req.params, req.query), objectOf(req.body), optionsOf(req.query));
    return sendResult(reply.code(201), result);
  });
  route<NameParams>('replaceObject', async (req, reply, write) => {
    const result = await write.update(namedOf(req.params, req.query), objectOf(req.body), optionsOf(req.query));
    return sendResult(reply, result);
  });
  route<NameParams>('patchObject', async (req, reply, write) => {
    const result = await write.patch(namedOf(req.params, req.query), patchOf(req), patchTypeOf(req), optionsOf(req.query));
    return sendResult(reply, result);
  });
  route<NameParams>('replaceObjectStatus', async (req, reply, write) => {
    const result = await write.updateStatus(namedOf(req.params, req.query), objectOf(req.body), optionsOf(req.query));
    return sendResult(reply, result);
  });
  route<NameParams>('patchObjectStatus', async (req, reply, write) => {
    const result = await write.patchStatus(namedOf(req.params, req.query), patchOf(req), patchTypeOf(req), optionsOf(req.query));
    return sendResult(reply, result);
  });
  route<NameParams>('deleteObject', async (req, reply, write) => {
    const result = await write.delete(namedOf(req.params, req.query), optionsOf(req.query));
    return sendResult(reply, result);
  });
  route<ResourceParams>('deleteObjects', async (req, reply, write) => {
    const selector = req.query.labelSelector === '' ? undefined : req.query.labelSelector;
    const result = await write.deleteAllOf(targetOf(req.params, req.query), selector, optionsOf(req.query));
    reply.header('x-cachegate-source', 'source');
    return reply.type(JSON_TYPE).send({ kind: 'ObjectList', metadata: { shard: result.shard, cluster: result.cluster }, items: result.items });
  });
}

function targetOf(params: ResourceParams, query: WriteQuery): WriteTarget {
  return {
    cluster: query.cluster, group: params.group, version: params.version, resource: params.resource,
    ...(query.shard ? { shard: query.shard } : {}),
    ...(query.namespace ? { namespace: query.namespace } : {}),
  };
}

function namedOf(params: NameParams, query: WriteQuery): NamedTarget {
  return { ...targetOf(params, query), name: params.name };
}

function optionsOf(query: WriteQuery): WriteOptions {
  return {
    ...(query.dryRun === 'All' ? { dryRun: true } : {}),
    ...(query.fieldManager ? { fieldManager: query.fieldManager } : {}),
    ...(query.force === true ? { force: true } : {}),
  };
}

// A create or replace body: a JSON object; its metadata may be left out (the source then says what is missing).
function objectOf(body: unknown): KubeObject {
  if (!isPlainObject(body)) throw new AppError('BadRequest', 'the request body must be a JSON object (the Kubernetes object to write)');
  if (body['metadata'] !== undefined && !isPlainObject(body['metadata'])) throw new AppError('BadRequest', 'metadata must be an object');
  return { ...body, metadata: isPlainObject(body['metadata']) ? body['metadata'] : {} } as KubeObject;
}

/** mediaTypeOf is a request's media type, lowercase and without parameters. */
function mediaTypeOf(req: FastifyRequest): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function patchTypeOf(req: FastifyRequest): PatchType {
  const mediaType = mediaTypeOf(req);
  const type = PATCH_TYPES[mediaType];
  if (type === undefined) {
    throw new AppError('UnsupportedMediaType',
      `the body of a PATCH must be application/merge-patch+json, application/json-patch+json or application/apply-patch+yaml, not ${mediaType === '' ? 'empty' : `"${mediaType}"`}`);
  }
  return type;
}

function patchOf(req: FastifyRequest): unknown {
  patchTypeOf(req);
  if (req.body === undefined) throw new AppError('BadRequest', 'a PATCH needs a body');
  return req.body;
}

function sendResult(reply: FastifyReply, result: WriteResult): FastifyReply {
  reply.header('x-cachegate-source', 'source');
  const token = minResourceVersionOf(result);
  if (token !== undefined) reply.header('x-cachegate-resource-version', token);
  return reply.type(JSON_TYPE).send(JSON.stringify(result.object ?? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' }));
}
