// Step 3, the resource: the CCR's GVR must be served in its logical cluster, and it must be the
// only live CCR for that resource there (the oldest wins; a later one is a Duplicate and
// replicates nothing). The kind and scope found are recorded as annotations.

import { groupResourceKey } from '../../apimachinery/gvr.js';
import { readCcr, RESOURCE_KIND_ANNOTATION, RESOURCE_SCOPE_ANNOTATION } from './ccr-view.js';
import type { ReconcileContext, StepResult } from './reconcile-context.js';

/** RETRY_UNKNOWN_RESOURCE_MS is how soon an unknown resource is looked up again. */
export const RETRY_UNKNOWN_RESOURCE_MS = 2000;

/** reconcileSchema checks the GVR and the duplicate rule, and records kind and scope. */
export async function reconcileSchema(ctx: ReconcileContext): Promise<StepResult> {
  const { ccr } = ctx;
  const gr = groupResourceKey(ccr.gvr);
  if (!ccr.gvr.resource || !ccr.gvr.version) {
    ctx.status.setCondition('ResourceValid', false, 'InvalidSpec', 'spec.resource and spec.version are required');
    return 'stop';
  }
  const olderTwin = olderTwinOf(ctx);
  if (olderTwin) {
    await ctx.children.remove(ctx.key, { purge: false });
    ctx.status.setCondition('ResourceValid', false, 'Duplicate', `ClusterCachedResource "${olderTwin}" already replicates ${gr} in logical cluster ${ccr.cluster}`);
    return 'stop';
  }
  const resolved = await ctx.resolve(ccr.cluster, ccr.gvr);
  if (!resolved) {
    ctx.status.setCondition('ResourceValid', false, 'ResourceNotFound', `the server does not serve ${gr} version ${ccr.gvr.version} in logical cluster ${ccr.cluster}`);
    ctx.requeueAfterMs = RETRY_UNKNOWN_RESOURCE_MS;
    return 'stop';
  }
  const scope = resolved.namespaced ? 'Namespaced' : 'Cluster';
  if (ccr.annotations[RESOURCE_KIND_ANNOTATION] !== resolved.kind || ccr.annotations[RESOURCE_SCOPE_ANNOTATION] !== scope) {
    await ctx.client.patchCcr(ccr.cluster, ccr.name, {
      metadata: { annotations: { [RESOURCE_KIND_ANNOTATION]: resolved.kind, [RESOURCE_SCOPE_ANNOTATION]: scope } },
    });
    return 'stop';
  }
  return 'continue';
}

/** olderTwinOf names a live CCR of the same cluster and group/resource created before this one. */
export function olderTwinOf(ctx: ReconcileContext): string | undefined {
  const mine = ctx.ccr;
  for (const obj of ctx.others()) {
    const other = readCcr(mine.cluster, obj);
    if (other.name === mine.name || other.deleting) continue;
    if (other.gvr.group !== mine.gvr.group || other.gvr.resource !== mine.gvr.resource) continue;
    const older = other.creationTimestamp < mine.creationTimestamp
      || (other.creationTimestamp === mine.creationTimestamp && other.name < mine.name);
    if (older) return other.name;
  }
  return undefined;
}
