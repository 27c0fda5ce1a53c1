// Step 2, deletion (only while the CCR is being deleted), the seed's delete flow: the child stops
// replicating, every copy of this (shard, cluster, schema) is purged, and once none is left the
// phase becomes Deleted, after which step 1 removes the finalizer. Nothing here needs the
// resource to still exist, so a CCR whose CRD is gone is deleted all the same.

import type { ReconcileContext, StepResult } from './reconcile-context.js';
import { olderTwinOf } from './reconcile-schema.js';

/** reconcileDeletion purges a deleting CCR's copies and reports Deleted. */
export async function reconcileDeletion(ctx: ReconcileContext): Promise<StepResult> {
  if (!ctx.ccr.deleting) return 'continue';
  if (olderTwinOf(ctx) !== undefined) {
    // A duplicate replicated nothing; the copies belong to the older CCR and stay.
    await ctx.children.remove(ctx.key, { purge: false });
    ctx.status.setPhase('Deleted');
    return 'stop';
  }
  await ctx.children.remove(ctx.key, { purge: true });
  await ctx.purger.purge(ctx.shard, ctx.ccr.cluster, ctx.ccr.gvr);
  const left = await ctx.purger.count(ctx.shard, ctx.ccr.cluster, ctx.ccr.gvr);
  ctx.status.setCounts({ local: 0, cache: left });
  if (left === 0) ctx.status.setPhase('Deleted');
  else ctx.requeueAfterMs = 100;
  return 'stop';
}
