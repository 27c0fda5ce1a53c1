// Point reads: one original by group/version/resource/name, and one CachedObject by its name.
// URLs and parameter schemas come from the OpenAPI document (operations getObject and
// getCachedObject).

import type { FastifyInstance } from 'fastify';
import type { FacadeContext } from './facade-context.js';
import { minResourceVersions } from './min-resource-version.js';
import type { MinResourceVersionQuery } from './min-resource-version.js';
import { documentedRoute } from './route-schemas.js';
import { sendObject } from './send-object.js';

interface ObjectParams {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly name: string;
}

interface WhereQuery extends MinResourceVersionQuery {
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
    handler: async (req, reply) => {
      const { group, version, resource, name } = req.params;
      const { namespace } = req.query;
      await ctx.read.waitForReplication(minResourceVersions(req.query));
      const found = await ctx.read.getObject({ group, version, resource, name, ...where(req.query), ...(namespace === undefined ? {} : { namespace }) });
      reply.header('x-cachegate-source', found.source);
      return sendObject(req, reply, found.object, ctx.json);
    },
  });

  const getCachedObject = documentedRoute(ctx.document, 'getCachedObject', prefix);
  api.route<{ Params: { readonly name: string }; Querystring: WhereQuery }>({
    method: getCachedObject.method,
    url: getCachedObject.url,
    schema: getCachedObject.schema,
    handler: async (req, reply) => {
      await ctx.read.waitForReplication(minResourceVersions(req.query));
      const cachedObject = await ctx.read.getCachedObject(req.params.name, where(req.query));
      return sendObject(req, reply, cachedObject, ctx.json);
    },
  });
}

// cluster and shard, leaving out empty values (left out = "wherever it is unique").
function where(query: WhereQuery): { cluster?: string; shard?: string } {
  return {
    ...(query.cluster ? { cluster: query.cluster } : {}),
    ...(query.shard ? { shard: query.shard } : {}),
  };
}
