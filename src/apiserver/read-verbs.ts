// get, list and watch.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { apiVersionOf } from '../apimachinery/gvr.js';
import { joinedJsonBytes } from '../apimachinery/joined-json-bytes.js';
import { parseLabelSelector } from '../apimachinery/label-selector.js';
import { parseFieldSelector } from '../apimachinery/field-selector.js';
import { invalidResourceVersion, isNumericResourceVersion } from '../apimachinery/resource-version.js';
import { LOGICAL_CLUSTER_ANNOTATION } from '../apimachinery/logical-cluster.js';
import type { ListOptions, ListResult, WatchEvent } from '../store/store.js';
import { tooLargeResourceVersion } from '../store/store-errors.js';
import type { ApiContext } from './api-context.js';
import { scopeOf } from './api-context.js';
import { keyOf, present } from './object-input.js';
import type { QueryValue } from './query-params.js';
import { MAX_LIST_LIMIT, firstValue, parseBoolean, parseNonNegativeInt } from './query-params.js';
import type { RequestTarget } from './request-target.js';
import { checkListOptions } from './list-options.js';
import { toTable, wantsTable } from './table.js';
import { serveWatch } from './watch-stream.js';

type Query = Record<string, QueryValue>;

/** getObject serves GET of one object (or its status subresource, which reads the same). */
export async function getObject(ctx: ApiContext, target: RequestTarget, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  requestedVersion(req.query as Query);
  await readConsistently(ctx, req.query as Query);
  const obj = target.cluster === undefined || target.where !== undefined
    ? await getAcrossClusters(ctx, target)
    : await ctx.store.get(keyOf(target, target.name ?? ''));
  if (wantsTable(req.headers.accept)) {
    await reply.send(toTable(target.info, [obj], { resourceVersion: obj.metadata.resourceVersion }));
    return;
  }
  await sendJson(reply, 200, jsonOf(ctx, present(obj, target.info)));
}

/** listOrWatch serves GET of a collection: a list, or a watch when `watch` is set. */
export async function listOrWatch(ctx: ApiContext, target: RequestTarget, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const query = req.query as Query;
  const selectors = {
    labelSelector: parseLabelSelector(firstValue(query['labelSelector']) ?? ''),
    fieldSelector: parseFieldSelector(firstValue(query['fieldSelector']) ?? '', target.info.fieldSelectors),
  };
  const watching = parseBoolean('watch', query['watch']);
  const resourceVersionMatch = firstValue(query['resourceVersionMatch']);
  checkListOptions({
    watch: watching,
    resourceVersion: firstValue(query['resourceVersion']),
    resourceVersionMatch,
    continue: firstValue(query['continue']),
    ...(firstValue(query['sendInitialEvents']) === undefined ? {} : { sendInitialEvents: parseBoolean('sendInitialEvents', query['sendInitialEvents']) }),
  });
  if (watching) {
    await watch(ctx, target, req, reply, selectors);
    return;
  }
  const resourceVersion = requestedVersion(query);
  await readConsistently(ctx, query);
  await refuseFutureVersion(ctx, resourceVersion);
  const opts: ListOptions = {
    ...selectors,
    limit: Math.min(parseNonNegativeInt('limit', query['limit']) ?? 0, MAX_LIST_LIMIT) || undefined,
    continue: firstValue(query['continue']) || undefined,
  };
  const page = await ctx.store.list(scopeOf(target), opts);
  if (resourceVersionMatch === 'Exact' && resourceVersion !== undefined) requireExact(resourceVersion, page.resourceVersion);
  if (wantsTable(req.headers.accept)) {
    await reply.send(toTable(target.info, page.items, listMeta(page)));
    return;
  }
  await sendJson(reply, 200, listJson(ctx, target, page));
}

/**
 * getAcrossClusters serves a GET under a wildcard cluster: the one object of that name, or 409
 * naming the clusters when the name is not unique. It scans the scope, so it is a convenience path.
 */
async function getAcrossClusters(ctx: ApiContext, target: RequestTarget): Promise<KubeObject> {
  const name = target.name ?? '';
  const page = await ctx.store.list(scopeOf(target), { fieldSelector: parseFieldSelector(`metadata.name=${name}`) });
  const resource = target.info.group ? `${target.info.resource}.${target.info.group}` : target.info.resource;
  const [first, second] = page.items;
  if (first === undefined) throw new AppError('NotFound', `${resource} "${name}" not found`, { name, group: target.info.group, kind: target.info.resource });
  if (second !== undefined) {
    const clusters = page.items.map((o) => o.metadata.annotations?.[LOGICAL_CLUSTER_ANNOTATION] ?? '?').join(', ');
    throw new AppError('Conflict', `${resource} "${name}" exists in several logical clusters (${clusters}); name one in the path`, { name, group: target.info.group, kind: target.info.resource });
  }
  return first;
}

async function watch(
  ctx: ApiContext, target: RequestTarget, req: FastifyRequest, reply: FastifyReply,
  selectors: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>,
): Promise<void> {
  const query = req.query as Query;
  const timeout = parseNonNegativeInt('timeoutSeconds', query['timeoutSeconds']);
  const table = wantsTable(req.headers.accept);
  const encode = (event: WatchEvent): string => {
    if (table && event.type !== 'BOOKMARK') {
      return JSON.stringify({ type: event.type, object: toTable(target.info, [event.object], { resourceVersion: event.object.metadata.resourceVersion }) });
    }
    if (event.object.apiVersion === undefined || event.type === 'BOOKMARK') return ctx.encoder.line(event);
    return ctx.encoder.line({ type: event.type, object: present(event.object, target.info) });
  };
  const limits = timeout ? { ...ctx.watchLimits, timeoutSeconds: Math.min(timeout, ctx.watchLimits.timeoutSeconds) } : ctx.watchLimits;
  await serveWatch(ctx.store, reply, {
    scope: scopeOf(target),
    options: {
      ...selectors,
      resourceVersion: firstValue(query['resourceVersion']) || undefined,
      sendInitialEvents: parseBoolean('sendInitialEvents', query['sendInitialEvents']),
    },
    bookmarks: parseBoolean('allowWatchBookmarks', query['allowWatchBookmarks']),
    encode,
  }, limits, ctx.watches);
}

/** readConsistently waits for a consistent view when the request names no resourceVersion (kube's default). */
async function readConsistently(ctx: ApiContext, query: Query): Promise<void> {
  if (ctx.consistentRead === undefined || (firstValue(query['resourceVersion']) ?? '') !== '') return;
  await ctx.consistentRead();
}

/**
 * requestedVersion is a get's or list's `resourceVersion`, unset or '' when none. Anything but an
 * unsigned decimal is 400 BadRequest, as a watch's is: kube-apiserver refuses what ParseUint cannot
 * read, and serving the current state instead would hide a client's bug.
 */
function requestedVersion(query: Query): string | undefined {
  const resourceVersion = firstValue(query['resourceVersion']);
  if (resourceVersion === undefined || resourceVersion === '') return undefined;
  if (!isNumericResourceVersion(resourceVersion)) throw invalidResourceVersion(resourceVersion);
  return resourceVersion;
}

/**
 * refuseFutureVersion answers a list "not older than" a resourceVersion this store has not reached
 * as kube-apiserver does (504, ResourceVersionTooLarge), so a client that followed an earlier
 * incarnation of the store re-lists from scratch instead of trusting a list that predates its own.
 */
async function refuseFutureVersion(ctx: ApiContext, resourceVersion: string | undefined): Promise<void> {
  if (resourceVersion === undefined) return;
  const current = Number(await ctx.store.resourceVersion());
  const requested = Number(resourceVersion);
  if (requested > current) throw tooLargeResourceVersion(requested, current);
}

/**
 * requireExact refuses a list asked at exactly one version when the list taken is at another. The
 * store keeps no past states, so an older version is expired, as kube-apiserver answers one that
 * etcd has compacted away; checking the list taken, not the version before it, also refuses a list
 * that a write landing meanwhile moved on.
 */
function requireExact(requested: string, listed: string): void {
  if (Number(requested) !== Number(listed)) throw new AppError('Expired', `too old resource version: ${Number(requested)} (${listed})`);
}

function listMeta(page: ListResult): Record<string, unknown> {
  return {
    resourceVersion: page.resourceVersion,
    ...(page.continue ? { continue: page.continue } : {}),
    ...(page.remainingItemCount !== undefined ? { remainingItemCount: page.remainingItemCount } : {}),
  };
}

/** listJson writes a list from the items' cached JSON, as UTF-8 bytes (see joined-json-bytes.ts). */
export function listJson(ctx: ApiContext, target: RequestTarget, page: ListResult): Buffer {
  const head = JSON.stringify({
    kind: target.info.listKind,
    apiVersion: apiVersionOf(target.info.group, target.info.version),
    metadata: listMeta(page),
  });
  const items = page.items.map((obj) => jsonOf(ctx, present(obj, target.info)));
  return joinedJsonBytes(`${head.slice(0, -1)},"items":[`, items, ']}');
}

/** jsonOf serialises an object, reusing the encoder's cache for stored objects. */
export function jsonOf(ctx: ApiContext, obj: KubeObject): string {
  return ctx.encoder.json(obj);
}

/** sendJson sends pre-serialised JSON, as text or as UTF-8 bytes. */
export async function sendJson(reply: FastifyReply, status: number, json: string | Buffer): Promise<void> {
  await reply.code(status).header('content-type', 'application/json').send(json);
}
