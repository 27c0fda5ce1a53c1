// Point reads: one original by group/version/resource/name, and one CachedObject by its name.
// URLs and parameter schemas come from the OpenAPI document (operations getObject and
// getCachedObject).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FoundObject, ObjectRef } from '../../read/read-model.js';
import type { JsonText } from '../../apimachinery/json-text.js';
import type { FacadeContext } from './facade-context.js';
import { readWaitOf } from './read-wait.js';
import type { ReadWaitQuery } from './read-wait.js';
import { documentedRoute } from './route-schemas.js';
import { sendObject, sendObjectNow } from './send-object.js';

interface ObjectParams {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly name: string;
}

interface WhereQuery extends ReadWaitQuery {
  readonly cluster?: string;
  readonly shard?: string;
  readonly namespace?: string;
}

/** objectRoutes registers GET /v1/objects/... and GET /v1/cachedobjects/{name} in the /v1 scope. */
export function objectRoutes(api: FastifyInstance, ctx: FacadeContext, prefix: string): void {
  const getObject = documentedRoute(ctx.document, 'getObject', prefix);
  api.route<{ Params: ObjectParams; Querystring: WhereQuery }>({
    method: getObject.method,
    url: getObject.url,
    schema: getObject.schema,
    // Synchronous unless the read waits (minResourceVersion, or a consistent read on replicas): the
    // point read is the hottest route, and a handler that sends before returning skips a promise
    // and a microtask hop per request.
    handler: (req, reply) => {
      const read = ctx.readOf(req);
      const waiting = read.waitForRead(readWaitOf(req.query));
      if (waiting === undefined) return sendFound(req, reply, read.findObject(objectRef(req.params, req.query)), ctx.json);
      return waiting.then(() => {
        sendFound(req, reply, read.findObject(objectRef(req.params, req.query)), ctx.json);
        return reply;
      });
    },
  });

  const getCachedObject = documentedRoute(ctx.document, 'getCachedObject', prefix);
  api.route<{ Params: { readonly name: string }; Querystring: WhereQuery }>({
    method: getCachedObject.method,
    url: getCachedObject.url,
    schema: getCachedObject.schema,
    handler: async (req, reply) => {
      await ctx.readOf(req).waitForRead(readWaitOf(req.query));
      const cachedObject = await ctx.readOf(req).getCachedObject(req.params.name, where(req.query));
      return sendObject(req, reply, cachedObject, ctx.json);
    },
  });
}

function objectRef(params: ObjectParams, query: WhereQuery): ObjectRef {
  const ref: { -readonly [K in keyof ObjectRef]: ObjectRef[K] } = { group: params.group, version: params.version, resource: params.resource, name: params.name };
  if (query.namespace !== undefined) ref.namespace = query.namespace;
  if (query.cluster) ref.cluster = query.cluster;
  if (query.shard) ref.shard = query.shard;
  return ref;
}

function sendFound(req: FastifyRequest, reply: FastifyReply, found: FoundObject, json: JsonText): undefined {
  reply.header('x-cachegate-source', found.source);
  sendObjectNow(req, reply, found.object, json);
  return undefined;
}

// cluster and shard, leaving out empty values (left out = "wherever it is unique").
function where(query: WhereQuery): { cluster?: string; shard?: string } {
  return {
    ...(query.cluster ? { cluster: query.cluster } : {}),
    ...(query.shard ? { shard: query.shard } : {}),
  };
}
