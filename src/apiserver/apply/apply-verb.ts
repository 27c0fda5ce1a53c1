// PATCH with Content-Type application/apply-patch+yaml: server-side apply over HTTP. Reads the
// request (fieldManager, force, dryRun, the applied configuration), runs applyToObject on the
// stored object and stores the result through the same create and update paths as POST and PUT,
// so validation, admission, dry run and hooks are the ones every write goes through.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../../errors.js';
import { apiVersionOf } from '../../apimachinery/gvr.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { rfc3339Seconds } from '../../store/write-rules.js';
import type { ApiContext } from '../api-context.js';
import { assertDecodes } from '../decode-check.js';
import { checkName, fillNamespace, fillTypeMeta, keyOf, present, readBody } from '../object-input.js';
import type { QueryValue } from '../query-params.js';
import { parseBoolean } from '../query-params.js';
import { jsonOf, sendJson } from '../read-verbs.js';
import type { RequestTarget } from '../request-target.js';
import type { MutableObject } from '../resource-hooks.js';
import { dryRunOf, storeCreate, storeUpdate } from '../write-verbs.js';
import { applyToObject } from './apply-object.js';
import { fieldManagerOf } from './field-manager.js';
import { listTypesFor } from './list-types.js';
import { withoutNulls } from './merge-applied.js';

/** APPLY_PATCH_MEDIA_TYPE is the Content-Type of a server-side apply (its body YAML or JSON). */
export const APPLY_PATCH_MEDIA_TYPE = 'application/apply-patch+yaml';

const MAX_ATTEMPTS = 5;

/** applyObject serves a server-side apply PATCH: 201 when it created the object, else 200. */
export async function applyObject(ctx: ApiContext, target: RequestTarget, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  // The store keeps the stored metadata on a status write, so an apply there could not record
  // its ownership; refusing is clearer than applying without bookkeeping.
  if (target.subresource === 'status') {
    throw new AppError('MethodNotAllowed', 'server-side apply to the status subresource is not supported; apply to the object itself');
  }
  const manager = fieldManagerOf(req, true);
  const force = parseBoolean('force', (req.query as Record<string, QueryValue>)['force']);
  const dryRun = dryRunOf(req);
  const applied = appliedConfiguration(ctx, target, req.body);
  const pinned = applied.metadata['resourceVersion'] !== undefined;
  const key = keyOf(target, target.name ?? '');
  for (let attempt = 1; ; attempt++) {
    const live = await getOrUndefined(ctx, target);
    const result = applyToObject({
      live, applied, manager, force, apiVersion: apiVersionOf(target.info.group, target.info.version),
      listTypes: listTypesFor(target.info.group, target.info.kind), now: rfc3339Seconds(new Date()),
    });
    try {
      if (live === undefined) {
        // An apply with a resourceVersion only ever updates, as kube's precondition says.
        if (pinned) throw new AppError('NotFound', `${target.info.resource} "${key.name}" not found`, { name: key.name, group: target.info.group, kind: target.info.resource });
        const created = await storeCreate(ctx, target, readBody(result.unchanged ? {} : result.object), dryRun);
        await sendJson(reply, 201, jsonOf(ctx, present(created, target.info)));
        return;
      }
      if (result.unchanged) {
        await sendJson(reply, 200, jsonOf(ctx, present(live, target.info)));
        return;
      }
      assertDecodes(ctx.hooks, target.info, result.object, 'patch');
      const next = readBody(result.object);
      // Pin the version read, so a concurrent write is detected and the apply redone on it.
      next.metadata['resourceVersion'] = pinned ? applied.metadata['resourceVersion'] : live.metadata.resourceVersion;
      const updated = await storeUpdate(ctx, target, next, dryRun);
      await sendJson(reply, 200, jsonOf(ctx, present(updated, target.info)));
      return;
    } catch (err) {
      const raced = isAppError(err, 'AlreadyExists') || (isAppError(err, 'Conflict') && !pinned && !isApplyConflict(err));
      if (!raced || attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}

/**
 * appliedConfiguration checks the body and brings it to what the merge expects: type meta, name
 * and namespace agreeing with the URL, nulls dropped, status left out where it is a subresource
 * (the main resource cannot write it, so the applier cannot own it).
 */
function appliedConfiguration(ctx: ApiContext, target: RequestTarget, body: unknown): MutableObject {
  assertDecodes(ctx.hooks, target.info, body, 'body');
  const obj = readBody(withoutNulls(body));
  if (obj.metadata['managedFields'] !== undefined) throw new AppError('BadRequest', 'metadata.managedFields must be nil');
  fillTypeMeta(obj, target.info);
  fillNamespace(obj, target);
  checkName(obj, target.name ?? '');
  if (target.info.statusSubresource) delete obj['status'];
  return obj;
}

async function getOrUndefined(ctx: ApiContext, target: RequestTarget): Promise<KubeObject | undefined> {
  try {
    return await ctx.store.get(keyOf(target, target.name ?? ''));
  } catch (err) {
    if (isAppError(err, 'NotFound')) return undefined;
    throw err;
  }
}

/** isApplyConflict tells an ownership conflict (final) from a lost race (retried). */
function isApplyConflict(err: AppError): boolean {
  return (err.details.causes ?? []).some((cause) => cause.reason === 'FieldManagerConflict');
}
