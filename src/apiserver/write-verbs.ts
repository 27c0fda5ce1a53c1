// create (POST) and update (PUT), including the status subresource.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { apiVersionOf } from '../apimachinery/gvr.js';
import { rfc3339Seconds } from '../store/write-rules.js';
import type { ApiContext } from './api-context.js';
import { fieldManagerOf } from './apply/field-manager.js';
import { listTypesFor } from './apply/list-types.js';
import { recordUpdate } from './apply/record-update.js';
import { assertDecodes } from './decode-check.js';
import { concreteCluster, checkName, fillNamespace, fillTypeMeta, keyOf, present, readBody, validateMeta } from './object-input.js';
import type { QueryValue } from './query-params.js';
import { parseDryRun } from './query-params.js';
import type { HookContext, MutableObject } from './resource-hooks.js';
import type { RequestTarget } from './request-target.js';
import { jsonOf, sendJson } from './read-verbs.js';

/** hookContextOf gives the hooks' view of a write request. */
export function hookContextOf(ctx: ApiContext, target: RequestTarget, dryRun: boolean): HookContext {
  return { cluster: concreteCluster(target), info: target.info, store: ctx.store, dryRun };
}

/** dryRunOf reads the dryRun query parameter of a request. */
export function dryRunOf(req: FastifyRequest): boolean {
  return parseDryRun((req.query as Record<string, QueryValue>)['dryRun']);
}

/** createObject serves POST on a collection. */
export async function createObject(ctx: ApiContext, target: RequestTarget, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (target.name !== undefined) throw new AppError('MethodNotAllowed', 'POST is not allowed on a named object; use PUT or PATCH');
  assertDecodes(ctx.hooks, target.info, req.body, 'body');
  const created = await storeCreate(ctx, target, readBody(req.body), dryRunOf(req), fieldManagerOf(req, false));
  await sendJson(reply, 201, jsonOf(ctx, present(created, target.info)));
}

/**
 * storeCreate checks, admits and stores a new object; server-side apply creates through it too.
 * manager, when given, is recorded as the owner (an `Update` entry) of every field the object
 * sets; an apply passes none, having written its own entry. The caller has checked obj decodes.
 */
export async function storeCreate(ctx: ApiContext, target: RequestTarget, obj: MutableObject, dryRun: boolean, manager?: string): Promise<KubeObject> {
  const hookCtx = hookContextOf(ctx, target, dryRun);
  fillTypeMeta(obj, target.info);
  fillNamespace(obj, target);
  validateMeta(obj, target.info);
  // Status is the server's to set: clients cannot create it, but admission may (namespaces, CRDs).
  if (target.info.statusSubresource) delete obj['status'];
  if (!hookCtx.dryRun) await ctx.hooks.prepareCluster?.(hookCtx.cluster, ctx.store);
  await requireNamespace(ctx, target, obj.metadata['name']);
  await ctx.hooks.admit?.(hookCtx, obj, undefined);
  if (manager !== undefined) recordUpdateOf(target, undefined, obj, manager);
  const created = await ctx.store.create(
    { cluster: hookCtx.cluster, group: target.info.group, resource: target.info.resource },
    obj as KubeObject,
    { dryRun: hookCtx.dryRun, generation: target.info.generation !== false },
  );
  if (!hookCtx.dryRun) await ctx.hooks.afterWrite?.(hookCtx, created);
  return created;
}

/** updateObject serves PUT on an object or its status. */
export async function updateObject(ctx: ApiContext, target: RequestTarget, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  assertDecodes(ctx.hooks, target.info, req.body, 'body');
  const obj = readBody(req.body);
  const updated = await storeUpdate(ctx, target, obj, dryRunOf(req), fieldManagerOf(req, false));
  await sendJson(reply, 200, jsonOf(ctx, present(updated, target.info)));
}

/**
 * storeUpdate checks, admits and stores a full new version of a named object; PATCH ends here too.
 * manager, when given, is recorded as the owner of the fields the write changed (see
 * storeCreate). The caller has checked that obj decodes (assertDecodes).
 */
export async function storeUpdate(ctx: ApiContext, target: RequestTarget, obj: MutableObject, dryRun: boolean, manager?: string): Promise<KubeObject> {
  const name = target.name ?? '';
  const hookCtx = hookContextOf(ctx, target, dryRun);
  fillTypeMeta(obj, target.info);
  fillNamespace(obj, target);
  checkName(obj, name);
  const key = keyOf(target, name);
  const old = await ctx.store.get(key);
  validateMeta(obj, target.info, old);
  await ctx.hooks.admit?.(hookCtx, obj, old);
  if (manager !== undefined) recordUpdateOf(target, old, obj, manager);
  const updated = await ctx.store.update(key, obj as KubeObject, {
    dryRun, statusSubresource: target.info.statusSubresource, subresource: target.subresource,
  });
  if (dryRun) return updated;
  if (removedByUpdate(updated)) await ctx.hooks.afterDelete?.(hookCtx, updated);
  else await ctx.hooks.afterWrite?.(hookCtx, updated);
  return updated;
}

/**
 * recordUpdateOf records an ordinary write's field ownership, after admission (kube counts what
 * admission changed as the writer's too). A status write is not recorded: the store keeps the
 * stored metadata on it, so its entry could not be kept.
 */
function recordUpdateOf(target: RequestTarget, old: KubeObject | undefined, obj: MutableObject, manager: string): void {
  if (target.subresource === 'status') return;
  recordUpdate({
    old, next: obj, manager, apiVersion: apiVersionOf(target.info.group, target.info.version),
    listTypes: listTypesFor(target.info.group, target.info.kind), now: rfc3339Seconds(new Date()),
    ignoreStatus: target.info.statusSubresource,
  });
}

/** removedByUpdate tells whether an update took the last finalizer off an object being deleted. */
function removedByUpdate(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).length === 0;
}

/**
 * requireNamespace answers 404 for a namespaced create into a namespace that does not exist, and
 * 403 for one into a namespace being deleted (its contents are going), as kube-apiserver does.
 */
async function requireNamespace(ctx: ApiContext, target: RequestTarget, name: unknown): Promise<void> {
  if (!ctx.requireNamespaces || !target.info.namespaced || target.namespace === undefined) return;
  let ns: KubeObject;
  try {
    ns = await ctx.store.get({ cluster: concreteCluster(target), group: '', resource: 'namespaces', namespace: '', name: target.namespace });
  } catch (err) {
    if (isAppError(err, 'NotFound')) {
      throw new AppError('NotFound', `namespaces "${target.namespace}" not found`, { name: target.namespace, kind: 'namespaces' });
    }
    throw err;
  }
  if (ns.metadata.deletionTimestamp === undefined) return;
  const what = typeof name === 'string' && name !== '' ? `${target.info.resource} "${name}"` : target.info.resource;
  throw new AppError('Forbidden', `${what} is forbidden: unable to create new content in namespace ${target.namespace} because it is being terminated`, {
    ...(typeof name === 'string' && name !== '' ? { name } : {}), group: target.info.group, kind: target.info.resource,
  });
}
