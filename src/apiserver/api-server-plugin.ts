// The kube-compatible API server as a fastify plugin. It is mounted under a prefix that holds
// the logical cluster (`/clusters/:cluster` for the embedded source) and serves discovery,
// OpenAPI documents (an empty v2, a v3 with every served kind's schema) and every verb over one
// ResourceStore.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { assertJsonDepth } from '../apimachinery/json-depth.js';
import { sendError } from '../apimachinery/status.js';
import { decodeKubeProtobuf } from '../apimachinery/protobuf/decode-kube-protobuf.js';
import type { ObjectFilter, ResourceStore } from '../store/store.js';
import type { ApiContext } from './api-context.js';
import { APPLY_PATCH_MEDIA_TYPE } from './apply/apply-verb.js';
import { parseYamlBody } from '../apimachinery/yaml-body.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery.js';
import { deleteVerb } from './delete-verbs.js';
import { patchObject } from './patch-verb.js';
import { getObject, listOrWatch } from './read-verbs.js';
import type { ResourceHooks } from './resource-hooks.js';
import type { ResourceCatalog } from './resource-info.js';
import type { Location, RequestTarget } from './request-target.js';
import { ACCESS_REVIEW_RESOURCES, registerAccessReviews } from './access-reviews.js';
import type { ClusterAuthorizer } from './cluster-authorizer.js';
import { notFoundPath, resolveTarget } from './request-target.js';
import { OPENAPI_V2_PROTOBUF_TYPE, openApiV2Json, openApiV2Protobuf, wantsProtobufOpenApi } from './openapi-v2.js';
import { registerOpenApiV3 } from './openapi/openapi-v3-routes.js';
import { ActiveWatches, EventEncoder } from './watch-stream.js';
import type { WatchLimits } from './watch-stream.js';
import { createObject, updateObject } from './write-verbs.js';

/** ApiServerOptions configure one mount of the API server. */
export interface ApiServerOptions {
  readonly store: ResourceStore;
  readonly catalog: ResourceCatalog;
  readonly hooks: ResourceHooks;
  readonly watchLimits: WatchLimits;
  readonly requireNamespaces: boolean;
  /** gitVersion is reported by /version; kubectl picks its own version from it. */
  readonly gitVersion: string;
  /** locate reads the logical cluster (and any narrowing) from the route params. */
  readonly locate: (params: Readonly<Record<string, string>>) => Location;
  /** bodyLimit is the largest accepted request body in bytes. */
  readonly bodyLimit: number;
  /** watches tracks this mount's open watch streams (for metrics); one is made when absent. */
  readonly watches?: ActiveWatches;
  /** authorize checks every request before its body is read (see ClusterAuthorizer); absent = no authorization. */
  readonly authorize?: ClusterAuthorizer;
  /** userOf names a request's caller for `kubectl auth whoami`; undefined = anonymous (auth off). */
  readonly userOf?: (req: FastifyRequest) => string | undefined;
  /** consistentRead, when given, is what a get or list without resourceVersion waits for first (see ApiContext). */
  readonly consistentRead?: () => Promise<void> | undefined;
}


const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

const JSON_MEDIA_TYPES = [
  'application/json',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
];

/** apiServerPlugin registers the API server's routes in the (prefixed) fastify scope it is given. */
export async function apiServerPlugin(app: FastifyInstance, opts: ApiServerOptions): Promise<void> {
  const ctx: ApiContext = {
    store: opts.store, catalog: opts.catalog, hooks: opts.hooks, encoder: new EventEncoder(),
    watches: opts.watches ?? new ActiveWatches(), watchLimits: opts.watchLimits, requireNamespaces: opts.requireNamespaces,
    ...(opts.consistentRead ? { consistentRead: opts.consistentRead } : {}),
  };
  registerBodyParsers(app);
  // Paths no route serves are answered by the app's not-found handler, with the same Status.
  app.setErrorHandler(sendError);
  app.addHook('preClose', async () => ctx.watches.closeAll());
  const authorize = opts.authorize;
  // Authorization, then the resource, then the body, as kube-apiserver orders them: a request
  // another cluster's token may not make is 403 and one for a resource not served is 404 (or 405
  // on a read-only one) whatever its body holds, so neither is read or decoded first.
  if (authorize) {
    app.addHook('onRequest', async (req) => {
      if (req.routeOptions.config.anyCaller !== true) authorize(req, clusterParam(req), verbOf(req.method));
    });
  }
  registerDiscovery(app, opts);
  const clusterOf = (req: FastifyRequest): string => {
    opts.locate(req.params as Record<string, string>);
    return clusterParam(req);
  };
  registerAccessReviews(app, { ...(authorize ? { authorize } : {}), ...(opts.userOf ? { userOf: opts.userOf } : {}), clusterOf });
  const targets = new WeakMap<FastifyRequest, RequestTarget>();
  const verbs = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
  for (const url of ['/api/v1/*', '/apis/:group/:version/*']) {
    app.route({
      method: [...verbs], url, bodyLimit: opts.bodyLimit,
      preParsing: async (req, _reply, payload) => {
        targets.set(req, allowedTarget(resolve(opts, req), req.method));
        return payload;
      },
      handler: async (req, reply) => dispatch(ctx, targets.get(req) ?? allowedTarget(resolve(opts, req), req.method), req, reply),
    });
  }
}

function resolve(opts: ApiServerOptions, req: FastifyRequest): RequestTarget {
  const params = req.params as Record<string, string>;
  // `/api/v1/*` is the core group; its routes have no group or version params.
  const { group = '', version = 'v1' } = params;
  const location = opts.locate(params);
  const narrowed = opts.authorize?.(req, clusterParam(req), verbOf(req.method));
  const where = narrowed === undefined ? location.where : bothFilters(location.where, narrowed);
  return resolveTarget(opts.catalog, { ...location, where }, group, version, params['*'] ?? '');
}

/** clusterParam is the logical cluster the path names (`*` = every cluster). */
function clusterParam(req: FastifyRequest): string {
  return (req.params as Record<string, string> | undefined)?.['cluster'] ?? '*';
}

/** verbOf: GET (get, list, watch) reads; every other method writes. */
function verbOf(method: string): 'read' | 'write' {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

function bothFilters(first: ObjectFilter | undefined, second: ObjectFilter): ObjectFilter {
  if (first === undefined) return second;
  return { key: `${first.key}&${second.key}`, matches: (obj) => first.matches(obj) && second.matches(obj) };
}

/** allowedTarget is the target unless the method may not change it (a read-only resource). */
function allowedTarget(target: RequestTarget, method: string): RequestTarget {
  if (target.info.readOnly && method !== 'GET') {
    throw new AppError('MethodNotAllowed', `${target.info.resource} is read-only here`);
  }
  return target;
}

async function dispatch(ctx: ApiContext, target: RequestTarget, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  // A write reads the object it changes from this process's store: on replicas sharing a backend,
  // that store must first hold every write another replica made (a create there, a patch here).
  // A create needs no wait: the backend itself refuses a name that exists.
  if (req.method === 'PUT' || req.method === 'PATCH' || req.method === 'DELETE') await ctx.consistentRead?.();
  switch (req.method) {
    case 'GET': return target.name === undefined ? listOrWatch(ctx, target, req, reply) : getObject(ctx, target, req, reply);
    case 'POST': return createObject(ctx, target, req, reply);
    case 'PUT': return updateObject(ctx, requireName(target), req, reply);
    case 'PATCH': return patchObject(ctx, requireName(target), req, reply);
    case 'DELETE': return deleteVerb(ctx, target, req, reply);
    default: throw new AppError('MethodNotAllowed', `method ${req.method} is not allowed`);
  }
}

function requireName(target: RequestTarget): RequestTarget {
  if (target.name === undefined) throw new AppError('MethodNotAllowed', 'PUT and PATCH need a named object');
  return target;
}

function registerDiscovery(app: FastifyInstance, opts: ApiServerOptions): void {
  const storedOf = (req: FastifyRequest) => opts.catalog.resources(opts.locate(req.params as Record<string, string>).cluster);
  // Discovery lists the access reviews too; the OpenAPI documents describe the stored kinds only.
  const resourcesOf = (req: FastifyRequest) => [...storedOf(req), ...ACCESS_REVIEW_RESOURCES];
  const orNotFound = (doc: Record<string, unknown> | undefined): Record<string, unknown> => {
    if (!doc) throw notFoundPath();
    return doc;
  };
  app.get('/version', async () => versionInfo(opts.gitVersion));
  app.get('/api', async (req) => orNotFound(apiVersions(resourcesOf(req))));
  app.get('/api/v1', async (req) => orNotFound(apiResourceList(resourcesOf(req), '', 'v1')));
  app.get('/apis', async (req) => apiGroupList(resourcesOf(req)));
  app.get('/apis/:group', async (req) => orNotFound(apiGroup(resourcesOf(req), (req.params as Record<string, string>)['group'] ?? '')));
  app.get('/apis/:group/:version', async (req) => {
    const { group = '', version = '' } = req.params as Record<string, string>;
    return orNotFound(apiResourceList(resourcesOf(req), group, version));
  });
  app.get('/openapi/v2', async (req, reply) => {
    if (!wantsProtobufOpenApi(req.headers.accept)) return openApiV2Json(opts.gitVersion);
    return reply.type(OPENAPI_V2_PROTOBUF_TYPE).send(openApiV2Protobuf(opts.gitVersion));
  });
  registerOpenApiV3(app, { resourcesOf: storedOf, serverVersion: opts.gitVersion });
}

function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_MEDIA_TYPES, { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
      assertJsonDepth(parsed);
    } catch (err) {
      return done(err instanceof AppError ? err : new AppError('BadRequest', `error decoding request body: ${(err as Error).message}`), undefined);
    }
    done(null, parsed);
  });
  // Server-side apply sends YAML (kubectl, client-go) or JSON (the Python client): YAML reads both.
  app.addContentTypeParser(APPLY_PATCH_MEDIA_TYPE, { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseYamlBody(typeof body === 'string' ? body : body.toString('utf8')));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // Any other media type is refused as kube-apiserver refuses it, naming what may be sent instead.
  // A PATCH goes on unread: the patch verb names the patch types its resource takes.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, _body, done) => {
    if (req.method === 'PATCH') return done(null, undefined);
    done(new AppError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, ${PROTOBUF_MEDIA_TYPE}`), undefined);
  });
  // kubectl's generator commands (create namespace/configmap/secret) send built-in types as protobuf.
  app.addContentTypeParser(PROTOBUF_MEDIA_TYPE, { parseAs: 'buffer' }, (_req, body, done) => {
    try {
      done(null, decodeKubeProtobuf(body as Buffer));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
