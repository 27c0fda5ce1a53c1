// Step 5, replication: one child controller per CCR, started, re-selected on a selector change,
// or replaced (old copies purged) on a GVR change. Phase is Initializing until the child's
// source view has synced, then Ready; resourceCounts come from the child's incremental counts.

import { labelSelectorFromObject } from '../../apimachinery/label-selector.js';
import type { LabelSelectorObject } from '../../apimachinery/label-selector.js';
import type { LabelSelector } from '../../apimachinery/selector.js';
import { isAppError } from '../../errors.js';
import type { ReconcileContext, StepResult } from './reconcile-context.js';

/** SYNC_POLL_MS is how soon a CCR whose child is still syncing is looked at again. */
export const SYNC_POLL_MS = 100;

/** reconcileReplication runs the CCR's child and reports its progress in the status. */
export async function reconcileReplicationStep(ctx: ReconcileContext): Promise<StepResult> {
  const selector = selectorOf(ctx);
  if (!selector) return 'stop';
  const child = await ctx.children.ensure(ctx.key, {
    shard: ctx.shard,
    cluster: ctx.ccr.cluster,
    gvr: ctx.ccr.gvr,
    identityHash: ctx.status.identityHash,
    selector,
  }, ctx.onCountsChanged);
  ctx.status.setCondition('ResourceValid', true, 'Valid');
  ctx.status.setCondition('ReplicationStarted', true, 'Started');
  ctx.status.setCounts(child.counts());
  if (child.hasSynced()) ctx.status.setPhase('Ready');
  else {
    ctx.status.setPhase('Initializing');
    ctx.requeueAfterMs = SYNC_POLL_MS;
  }
  return 'continue';
}

function selectorOf(ctx: ReconcileContext): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(ctx.ccr.labelSelector as LabelSelectorObject | undefined);
  } catch (err) {
    if (!isAppError(err)) throw err;
    ctx.status.setCondition('ResourceValid', false, 'InvalidLabelSelector', err.message);
    return undefined;
  }
}
