// Step 2, reconcileDeletion: purge, then Deleted when nothing is left, else look again soon.

import { describe, expect, it } from 'vitest';
import { parseLabelSelector } from '../../../../src/apimachinery/label-selector.js';
import { reconcileDeletion } from '../../../../src/controllers/clustercachedresources/reconcile-deletion.js';
import { ccr, CLUSTER, context, copyKey, GVR, KEY, resolver, SHARD, world } from './fakes.js';

describe('reconcileDeletion', () => {
  it('a CCR that is not being deleted → continue, nothing purged', async () => {
    const w = world();
    w.purger.counts.set(copyKey(), 2);
    const ctx = context(w, ccr());
    expect(await reconcileDeletion(ctx)).toBe('continue');
    expect(w.purger.purged).toEqual([]);
    expect(ctx.status.changed()).toBe(false);
  });

  it('purges every copy, stops the child, and reports Deleted with counts 0 when none is left', async () => {
    const w = world();
    w.purger.counts.set(copyKey(), 5);
    await w.children.ensure(KEY, { shard: SHARD, cluster: CLUSTER, gvr: GVR, identityHash: 'h', selector: parseLabelSelector('') }, () => undefined);
    const ctx = context(w, ccr({ deleting: true, status: { phase: 'Deleting' } }));
    expect(await reconcileDeletion(ctx)).toBe('stop');
    expect(w.start.started[0]?.stopped).toBe(true);
    expect(w.children.get(KEY)).toBeUndefined();
    expect(w.purger.purged).toContain(copyKey());
    expect(w.purger.counts.get(copyKey())).toBe(0);
    expect(ctx.status.phase).toBe('Deleted');
    expect(ctx.status.value()['resourceCounts']).toEqual({ local: 0, cache: 0 });
    expect(ctx.requeueAfterMs).toBeUndefined();
  });

  it('some copies left after the purge → phase stays Deleting, counts say so, and a requeue is asked for', async () => {
    const w = world();
    w.purger.counts.set(copyKey(), 5);
    w.purger.survivors = 2;
    const ctx = context(w, ccr({ deleting: true, status: { phase: 'Deleting' } }));
    expect(await reconcileDeletion(ctx)).toBe('stop');
    expect(ctx.status.phase).toBe('Deleting');
    expect(ctx.status.value()['resourceCounts']).toEqual({ local: 0, cache: 2 });
    expect(ctx.requeueAfterMs).toBe(100);
  });

  it('never looks the resource up: a CCR whose CRD is gone still reaches Deleted', async () => {
    const w = world({ resolve: resolver({}) });
    w.purger.counts.set(copyKey(), 1);
    const ctx = context(w, ccr({ deleting: true, status: { phase: 'Deleting' } }));
    expect(await reconcileDeletion(ctx)).toBe('stop');
    expect(w.resolve.calls).toBe(0);
    expect(ctx.status.phase).toBe('Deleted');
  });

  it('purges only this CCR\'s GVR in this shard and cluster', async () => {
    const w = world();
    const other = { ...GVR, version: 'v2' };
    w.purger.counts.set(copyKey(), 1);
    w.purger.counts.set(copyKey(other), 4);
    const ctx = context(w, ccr({ deleting: true, status: { phase: 'Deleting' } }));
    await reconcileDeletion(ctx);
    expect(w.purger.purged).toEqual([copyKey()]);
    expect(w.purger.counts.get(copyKey(other))).toBe(4);
  });
});
