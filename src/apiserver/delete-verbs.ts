// DELETE of one object and of a collection. Each object of a collection goes through the same
// hooks as a single delete, so deleting a namespace's contents or a CRD's objects stays uniform.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import { apiVersionOf } from '../apimachinery/gvr.js';
import { parseFieldSelector } from '../apimachinery/field-selector.js';
import { parseLabelSelector } from '../apimachinery/label-selector.js';
import type { Preconditions } from '../store/store.js';
import type { ApiContext } from './api-context.js';
import { scopeOf } from './api-context.js';
import { concreteCluster, keyOf, present } from './object-input.js';
import type { QueryValue } from './query-params.js';
import { firstValue } from './query-params.js';
import type { RequestTarget } from './request-target.js';
import { jsonOf, sendJson } from './read-verbs.js';
import { dryRunOf, hookContextOf } from './write-verbs.js';

/** deleteVerb serves DELETE on an object or a collection. */
export async function deleteVerb(ctx: ApiContext, target: RequestTarget, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (target.subresource) throw new AppError('MethodNotAllowed', 'DELETE is not allowed on a subresource');
  const dryRun = dryRunOf(req) || bodyDryRun(req.body);
  if (target.name !== undefined) {
    const object = await deleteOne(ctx, target, target.name, dryRun, preconditionsOf(req.body));
    await sendJson(reply, 200, jsonOf(ctx, present(object, target.info)));
    return;
  }
  concreteCluster(target);
  const query = req.query as Record<string, QueryValue>;
  const page = await ctx.store.list(scopeOf(target), {
    labelSelector: parseLabelSelector(firstValue(query['labelSelector']) ?? ''),
    fieldSelector: parseFieldSelector(firstValue(query['fieldSelector']) ?? '', target.info.fieldSelectors),
  });
  const deleted: KubeObject[] = [];
  for (const obj of page.items) {
    const inNamespace = { ...target, namespace: obj.metadata.namespace || undefined };
    deleted.push(await deleteOne(ctx, inNamespace, obj.metadata.name ?? '', dryRun, undefined));
  }
  const head = { kind: target.info.listKind, apiVersion: apiVersionOf(target.info.group, target.info.version), metadata: { resourceVersion: await ctx.store.resourceVersion() } };
  await reply.code(200).send({ ...head, items: deleted.map((o) => present(o, target.info)) });
}

/** deleteOne deletes (or marks for deletion) one object, running the delete hooks. */
export async function deleteOne(
  ctx: ApiContext, target: RequestTarget, name: string, dryRun: boolean, preconditions: Preconditions | undefined,
): Promise<KubeObject> {
  const key = keyOf(target, name);
  const hookCtx = hookContextOf(ctx, target, dryRun);
  await ctx.hooks.beforeDelete?.(hookCtx, await ctx.store.get(key));
  const result = await ctx.store.delete(key, { dryRun, preconditions });
  if (!dryRun) {
    if (result.deleted) await ctx.hooks.afterDelete?.(hookCtx, result.object);
    else await ctx.hooks.afterMarkedForDeletion?.(hookCtx, result.object);
  }
  return result.object;
}

function preconditionsOf(body: unknown): Preconditions | undefined {
  if (!isPlainObject(body) || !isPlainObject(body['preconditions'])) return undefined;
  const { uid, resourceVersion } = body['preconditions'];
  return {
    ...(typeof uid === 'string' ? { uid } : {}),
    ...(typeof resourceVersion === 'string' ? { resourceVersion } : {}),
  };
}

function bodyDryRun(body: unknown): boolean {
  return isPlainObject(body) && Array.isArray(body['dryRun']) && body['dryRun'].includes('All');
}
