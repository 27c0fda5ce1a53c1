// Step 5, reconcileReplicationStep: the CCR's child is started (or re-selected) with the CCR's
// selector and identity, and its progress shows in the status.

import { describe, expect, it } from 'vitest';
import { reconcileReplicationStep, SYNC_POLL_MS } from '../../../../src/controllers/clustercachedresources/reconcile-replication.js';
import { ccr, CLUSTER, context, GVR, KEY, SHARD, world } from './fakes.js';

describe('reconcileReplicationStep', () => {
  it('starts the child with this shard, cluster, GVR, identity hash and selector; status Ready with its counts', async () => {
    const w = world({ configureChild: (child) => (child.value = { local: 3, cache: 2 }) });
    const ctx = context(w, ccr({ labelSelector: { matchLabels: { app: 'web' } }, status: { identityHash: 'abc' } }));
    expect(await reconcileReplicationStep(ctx)).toBe('continue');
    const child = w.start.started[0]!;
    expect({ ...child.spec, selector: child.spec.selector.toString() }).toEqual({ shard: SHARD, cluster: CLUSTER, gvr: GVR, identityHash: 'abc', selector: 'app=web' });
    expect(ctx.status.phase).toBe('Ready');
    expect(ctx.status.value()['resourceCounts']).toEqual({ local: 3, cache: 2 });
    expect(ctx.status.condition('ResourceValid')).toMatchObject({ status: 'True', reason: 'Valid' });
    expect(ctx.status.condition('ReplicationStarted')).toMatchObject({ status: 'True', reason: 'Started' });
    expect(ctx.requeueAfterMs).toBeUndefined();
  });

  it('honours matchExpressions as well as matchLabels', async () => {
    const w = world();
    const labelSelector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }, { key: 'legacy', operator: 'DoesNotExist' }] };
    await reconcileReplicationStep(context(w, ccr({ labelSelector })));
    const selector = w.start.started[0]!.spec.selector;
    expect(selector.matches({ app: 'web', tier: 'a' })).toBe(true);
    expect(selector.matches({ app: 'web', tier: 'c' })).toBe(false);
    expect(selector.matches({ app: 'web', tier: 'a', legacy: 'y' })).toBe(false);
  });

  it('no labelSelector selects everything', async () => {
    const w = world();
    await reconcileReplicationStep(context(w, ccr()));
    expect(w.start.started[0]!.spec.selector.empty).toBe(true);
  });

  it('a child whose source view has not synced yet → phase Initializing and a poll', async () => {
    const w = world({ configureChild: (child) => (child.synced = false) });
    const ctx = context(w, ccr());
    expect(await reconcileReplicationStep(ctx)).toBe('continue');
    expect(ctx.status.phase).toBe('Initializing');
    expect(ctx.requeueAfterMs).toBe(SYNC_POLL_MS);
  });

  it('a second pass re-selects the running child instead of starting another one', async () => {
    const w = world();
    await reconcileReplicationStep(context(w, ccr({ labelSelector: { matchLabels: { app: 'web' } } })));
    await reconcileReplicationStep(context(w, ccr({ labelSelector: { matchLabels: { app: 'db' } } })));
    expect(w.start.started).toHaveLength(1);
    expect(w.start.started[0]!.selectors).toEqual(['app=web', 'app=db']);
    expect(w.children.get(KEY)).toBe(w.start.started[0]);
  });

  it('an invalid labelSelector → ResourceValid=False InvalidLabelSelector, no child (stop)', async () => {
    const w = world();
    const ctx = context(w, ccr({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'Like', values: ['x'] }] } }));
    expect(await reconcileReplicationStep(ctx)).toBe('stop');
    expect(ctx.status.condition('ResourceValid')).toMatchObject({ status: 'False', reason: 'InvalidLabelSelector' });
    expect(w.start.started).toEqual([]);
  });
});
