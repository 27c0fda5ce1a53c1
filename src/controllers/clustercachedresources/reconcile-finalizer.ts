// Step 1, the finalizer and the start of deletion:
//   case 1: not deleting, no finalizer      → add it (stop; the update brings the CCR back)
//   case 2: deleting, phase Deleted         → remove the finalizer (stop; the CCR goes away)
//   case 3: deleting, phase not yet Deleting → phase Deleting, ResourceValid=False (stop: that status
//           is written on its own, so watchers see Deleting before Deleted; its event starts the purge)
//   case 4: deleting without our finalizer  → stop the child and purge (nothing else holds it)

import { CCR_FINALIZER } from './ccr-view.js';
import type { ReconcileContext, StepResult } from './reconcile-context.js';

/** reconcileFinalizer keeps the finalizer on live CCRs and takes it off fully deleted ones. */
export async function reconcileFinalizer(ctx: ReconcileContext): Promise<StepResult> {
  const { ccr } = ctx;
  if (!ccr.deleting) {
    if (ccr.hasFinalizer) return 'continue';
    await ctx.client.patchCcr(ccr.cluster, ccr.name, { metadata: { finalizers: [...currentFinalizers(ctx), CCR_FINALIZER] } });
    return 'stop';
  }
  if (!ccr.hasFinalizer) {
    await ctx.children.remove(ctx.key, { purge: true });
    return 'stop';
  }
  if (ctx.status.phase === 'Deleted') {
    await ctx.client.patchCcr(ccr.cluster, ccr.name, { metadata: { finalizers: currentFinalizers(ctx).filter((f) => f !== CCR_FINALIZER) } });
    return 'stop';
  }
  if (ctx.status.phase !== 'Deleting') {
    ctx.status.setPhase('Deleting');
    ctx.status.setCondition('ResourceValid', false, 'Deleting', 'the ClusterCachedResource is being deleted');
    return 'stop';
  }
  return 'continue';
}

function currentFinalizers(ctx: ReconcileContext): string[] {
  return [...ctx.ccr.finalizers];
}
