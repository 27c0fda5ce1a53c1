// One pass over one CCR: the steps in order, then one status write if anything changed. Steps
// that write metadata or spec stop the chain, since the write's own event brings the CCR back
// with fresh state (spec and status are never written in one pass).
//   1 finalizer → 2 deletion → 3 schema (GVR, duplicate, kind/scope) → 4 identity → 5 replication

import { transitionEvents } from './ccr-events.js';
import type { CcrEvent } from './ccr-events.js';
import { WorkingStatus } from './ccr-status.js';
import { readCcr } from './ccr-view.js';
import type { ReconcileContext, Step } from './reconcile-context.js';
import { reconcileDeletion } from './reconcile-deletion.js';
import { reconcileFinalizer } from './reconcile-finalizer.js';
import { reconcileIdentity } from './reconcile-identity.js';
import { reconcileReplicationStep } from './reconcile-replication.js';
import { reconcileSchema } from './reconcile-schema.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';

/** CCR_STEPS is the chain, in order. */
export const CCR_STEPS: readonly Step[] = [reconcileFinalizer, reconcileDeletion, reconcileSchema, reconcileIdentity, reconcileReplicationStep];

/** CcrPass is what one pass needs besides the CCR itself. */
export type CcrPass = Omit<ReconcileContext, 'ccr' | 'status' | 'requeueAfterMs'> & { readonly now: () => Date };

/** reconcileCcr runs the chain over a stored CCR and writes its status; it returns a requeue delay, if any. */
export async function reconcileCcr(pass: CcrPass, cluster: string, stored: KubeObject): Promise<number | undefined> {
  const ccr = readCcr(cluster, stored);
  const ctx: ReconcileContext = { ...pass, ccr, status: new WorkingStatus(ccr.status, timestamp(pass.now())) };
  for (const step of CCR_STEPS) {
    if ((await step(ctx)) === 'stop') break;
  }
  if (ctx.status.changed()) {
    await pass.client.patchCcrStatus(ccr.cluster, ccr.name, ctx.status.value());
    await recordTransitions(pass, ccr.cluster, { name: ccr.name, uid: stored.metadata.uid ?? '' }, transitionEvents(ccr.status, ctx.status.value()));
  }
  return ctx.requeueAfterMs;
}

// Events are what users read later, not what the reconcile depends on: one that cannot be written
// is logged and the reconcile goes on.
async function recordTransitions(pass: CcrPass, cluster: string, ccr: { name: string; uid: string }, events: readonly CcrEvent[]): Promise<void> {
  for (const event of events) {
    try {
      await pass.client.recordEvent(cluster, ccr, event);
    } catch (err) {
      pass.log.warn({ err, ccr: ccr.name, reason: event.reason }, 'an event about a ClusterCachedResource could not be recorded');
    }
  }
}

function timestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
