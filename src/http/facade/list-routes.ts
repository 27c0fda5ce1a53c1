// Lists: CachedObjects (or their watch as Server-Sent Events), the originals of one schema, the
// schemas themselves and the ClusterCachedResources. URLs and parameter schemas come from the
// OpenAPI document (operations listCachedObjects, listSchemaObjects, listSchemas,
// listClusterCachedResources).

import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../errors.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import type { Page } from '../../read/read-model.js';
import type { FacadeContext } from './facade-context.js';
import { parseListQuery } from './list-query.js';
import type { ListQuery } from './list-query.js';
import { readWaitOf } from './read-wait.js';
import { documentedRoute } from './route-schemas.js';
import { serveSse } from './serve-sse.js';

const CACHE_API_VERSION = 'cache.kcp.io/v1alpha1';
const JSON_TYPE = 'application/json; charset=utf-8';

/** listRoutes registers the list routes in the /v1 scope. */
export function listRoutes(api: FastifyInstance, ctx: FacadeContext, prefix: string): void {
  const cachedObjects = documentedRoute(ctx.document, 'listCachedObjects', prefix);
  api.route<{ Querystring: ListQuery }>({
    method: cachedObjects.method,
    url: cachedObjects.url,
    schema: cachedObjects.schema,
    handler: async (req, reply) => {
      const { filter, page } = parseListQuery(req.query);
      if (isTrue(req.query.watch)) {
        // HEAD (fastify answers it with this handler) gets the stream's head, never a stream.
        if (req.method === 'HEAD') return reply.type('text/event-stream; charset=utf-8').send();
        // A stream follows the cache from where this replica is; only the tokens are waited for.
        await ctx.readOf(req).waitForRead({ ...readWaitOf(req.query), consistent: false });
        const resourceVersion = resumeFrom(req.headers['last-event-id'], req.query.resourceVersion);
        return serveSse(req, reply, {
          read: ctx.readOf(req), filter, ...(resourceVersion === undefined ? {} : { resourceVersion }),
          limits: ctx.sseLimits, streams: ctx.streams, json: ctx.json,
        });
      }
      await ctx.readOf(req).waitForRead(readWaitOf(req.query));
      const result = await ctx.readOf(req).listCachedObjects(filter, page);
      return sendPage(reply, ctx, { kind: 'CachedObjectList', apiVersion: CACHE_API_VERSION }, result);
    },
  });

  const schemaObjects = documentedRoute(ctx.document, 'listSchemaObjects', prefix);
  api.route<{ Params: { readonly schema: string }; Querystring: ListQuery }>({
    method: schemaObjects.method,
    url: schemaObjects.url,
    schema: schemaObjects.schema,
    handler: async (req, reply) => {
      const { filter, page } = parseListQuery(req.query);
      await ctx.readOf(req).waitForRead(readWaitOf(req.query));
      const result = await ctx.readOf(req).listObjects({ ...filter, schema: req.params.schema }, page);
      return sendPage(reply, ctx, { kind: 'ObjectList' }, result);
    },
  });

  const schemas = documentedRoute(ctx.document, 'listSchemas', prefix);
  api.route({
    method: schemas.method,
    url: schemas.url,
    schema: schemas.schema,
    handler: async (req) => ({ kind: 'SchemaList', items: await ctx.readOf(req).schemas() }),
  });

  const ccrs = documentedRoute(ctx.document, 'listClusterCachedResources', prefix);
  api.route({
    method: ccrs.method,
    url: ccrs.url,
    schema: ccrs.schema,
    handler: async (req, reply) => {
      const items = await ctx.readOf(req).clusterCachedResources();
      return reply.type(JSON_TYPE).send(ctx.json.list({ kind: 'ClusterCachedResourceList', apiVersion: CACHE_API_VERSION }, items));
    },
  });
}

function sendPage(reply: FastifyReply, ctx: FacadeContext, head: Readonly<Record<string, string>>, page: Page<KubeObject>): FastifyReply {
  const metadata = {
    resourceVersion: page.resourceVersion,
    ...(page.continue ? { continue: page.continue } : {}),
    ...(page.remainingItemCount !== undefined ? { remainingItemCount: page.remainingItemCount } : {}),
  };
  return reply.type(JSON_TYPE).send(ctx.json.list({ ...head, metadata }, page.items));
}

// Booleans in queries: `true` or `1`, in any case (the document's pattern refuses anything else).
function isTrue(value: string | undefined): boolean {
  return value !== undefined && (value === '1' || value.toLowerCase() === 'true');
}

// Last-Event-ID (sent by a reconnecting EventSource) wins over the resourceVersion in the URL.
function resumeFrom(lastEventId: string | string[] | undefined, resourceVersion: string | undefined): string | undefined {
  const header = Array.isArray(lastEventId) ? lastEventId[0] : lastEventId;
  const from = header?.trim() || resourceVersion || undefined;
  if (from !== undefined && !/^[0-9]+$/.test(from)) {
    throw new AppError('BadRequest', `resourceVersion to resume from must be a cache resourceVersion (digits), got "${from}"`);
  }
  return from;
}
