// PATCH: JSON merge patch and JSON patch for every resource; strategic merge patch only for the
// core built-ins, where (having no merge-keyed lists among them) it reduces to a merge patch;
// server-side apply (application/apply-patch+yaml) for every resource, served by apply/.
// Without a resourceVersion in the patch, a patch that loses a race is re-applied to the new
// version, as the Kubernetes API server does.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { isPlainObject } from '../apimachinery/object-meta.js';
import { applyJsonPatch } from '../apimachinery/json-patch.js';
import { applyMergePatch } from '../apimachinery/merge-patch.js';
import type { ApiContext } from './api-context.js';
import { APPLY_PATCH_MEDIA_TYPE, applyObject } from './apply/apply-verb.js';
import { fieldManagerOf } from './apply/field-manager.js';
import { assertDecodes } from './decode-check.js';
import { keyOf, present, readBody } from './object-input.js';
import type { RequestTarget } from './request-target.js';
import { jsonOf, sendJson } from './read-verbs.js';
import { dryRunOf, storeUpdate } from './write-verbs.js';

/** PatchType is a supported patch media type. */
export type PatchType = 'merge' | 'json' | 'strategic';

const MAX_ATTEMPTS = 5;

/** patchTypeOf reads the Content-Type of a PATCH; anything unsupported for the resource → 415. */
export function patchTypeOf(contentType: string | undefined, coreGroup: boolean): PatchType {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/merge-patch+json') return 'merge';
  if (mediaType === 'application/json-patch+json') return 'json';
  if (mediaType === 'application/strategic-merge-patch+json' && coreGroup) return 'strategic';
  const accepted = coreGroup
    ? 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json'
    : 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';
  throw new AppError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted}`);
}

/** applyPatch applies a patch of a given type to a stored object. */
export function applyPatch(type: PatchType, current: KubeObject, patch: unknown): unknown {
  if (type === 'json') return applyJsonPatch(current, patch);
  if (!isPlainObject(patch)) throw new AppError('BadRequest', 'a merge patch must be a JSON object');
  return applyMergePatch(current, type === 'strategic' ? withoutDirectives(patch) : patch);
}

/** patchObject serves PATCH on an object or its status. */
export async function patchObject(ctx: ApiContext, target: RequestTarget, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (isApplyPatch(req.headers['content-type'])) return applyObject(ctx, target, req, reply);
  const type = patchTypeOf(req.headers['content-type'], target.info.group === '');
  const dryRun = dryRunOf(req);
  const manager = fieldManagerOf(req, false);
  const pinned = patchSetsResourceVersion(type, req.body);
  for (let attempt = 1; ; attempt++) {
    const current = await ctx.store.get(keyOf(target, target.name ?? ''));
    const result = applyPatch(type, current, req.body);
    // The patched object, not the patch, must have its kind's shape: a patch can only add to it.
    assertDecodes(ctx.hooks, target.info, result, 'patch');
    const patched = readBody(result);
    // Pin the version read, so a concurrent write is detected and the patch re-applied to it.
    if (!pinned) patched.metadata['resourceVersion'] = current.metadata.resourceVersion;
    try {
      const updated = await storeUpdate(ctx, target, patched, dryRun, manager);
      await sendJson(reply, 200, jsonOf(ctx, present(updated, target.info)));
      return;
    } catch (err) {
      if (pinned || attempt >= MAX_ATTEMPTS || !isAppError(err, 'Conflict')) throw err;
    }
  }
}

function isApplyPatch(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === APPLY_PATCH_MEDIA_TYPE;
}

function patchSetsResourceVersion(type: PatchType, patch: unknown): boolean {
  if (type === 'json') {
    return Array.isArray(patch) && patch.some((op) => isPlainObject(op) && op['path'] === '/metadata/resourceVersion');
  }
  return isPlainObject(patch) && isPlainObject(patch['metadata']) && patch['metadata']['resourceVersion'] !== undefined;
}

/** withoutDirectives drops strategic-merge directives ($patch, $retainKeys, $setElementOrder/…). */
function withoutDirectives(patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) continue;
    out[key] = isPlainObject(value) ? withoutDirectives(value) : value;
  }
  return out;
}
