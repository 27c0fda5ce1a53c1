// Step 1, reconcileFinalizer, case by case as its header comment numbers them.

import { describe, expect, it } from 'vitest';
import { parseLabelSelector } from '../../../../src/apimachinery/label-selector.js';
import { CCR_FINALIZER } from '../../../../src/controllers/clustercachedresources/ccr-view.js';
import { reconcileFinalizer } from '../../../../src/controllers/clustercachedresources/reconcile-finalizer.js';
import type { StepResult } from '../../../../src/controllers/clustercachedresources/reconcile-context.js';
import { ccr, CLUSTER, context, copyKey, GVR, KEY, NOW, SHARD, world } from './fakes.js';
import type { CcrOptions } from './fakes.js';

describe('reconcileFinalizer', () => {
  interface Row {
    readonly name: string;
    readonly ccr: CcrOptions;
    readonly result: StepResult;
    /** patch is the metadata/spec patch written, if any. */
    readonly patch?: Record<string, unknown>;
    /** phase is status.phase afterwards. */
    readonly phase?: string;
    readonly statusChanged: boolean;
  }

  const rows: Row[] = [
    {
      name: 'case 1: not deleting, no finalizer → add it (stop)',
      ccr: { finalizers: [] }, result: 'stop', patch: { metadata: { finalizers: [CCR_FINALIZER] } }, statusChanged: false,
    },
    {
      name: 'case 1: not deleting, no finalizer, other finalizers kept → add ours after them (stop)',
      ccr: { finalizers: ['example.com/other'] }, result: 'stop',
      patch: { metadata: { finalizers: ['example.com/other', CCR_FINALIZER] } }, statusChanged: false,
    },
    {
      name: 'case 1 (not met): not deleting, finalizer present → continue',
      ccr: {}, result: 'continue', statusChanged: false,
    },
    {
      name: 'case 2: deleting, phase Deleted → remove the finalizer (stop)',
      ccr: { deleting: true, status: { phase: 'Deleted' } }, result: 'stop', patch: { metadata: { finalizers: [] } }, phase: 'Deleted', statusChanged: false,
    },
    {
      name: 'case 2: deleting, phase Deleted → remove only our finalizer (stop)',
      ccr: { deleting: true, finalizers: ['example.com/a', CCR_FINALIZER, 'example.com/b'], status: { phase: 'Deleted' } },
      result: 'stop', patch: { metadata: { finalizers: ['example.com/a', 'example.com/b'] } }, phase: 'Deleted', statusChanged: false,
    },
    {
      name: 'case 3: deleting, phase not yet Deleting (Ready) → phase Deleting, ResourceValid=False (stop)',
      ccr: { deleting: true, status: { phase: 'Ready' } }, result: 'stop', phase: 'Deleting', statusChanged: true,
    },
    {
      name: 'case 3: deleting, no phase yet → phase Deleting, ResourceValid=False (stop)',
      ccr: { deleting: true }, result: 'stop', phase: 'Deleting', statusChanged: true,
    },
    {
      name: 'case 3 (not met): deleting, phase Deleting → continue (to the deletion step)',
      ccr: { deleting: true, status: { phase: 'Deleting' } }, result: 'continue', phase: 'Deleting', statusChanged: false,
    },
    {
      name: 'case 4: deleting without our finalizer → stop (the child is stopped and purged)',
      ccr: { deleting: true, finalizers: ['example.com/other'], status: { phase: 'Ready' } }, result: 'stop', phase: 'Ready', statusChanged: false,
    },
  ];

  it.each(rows)('$name', async (row) => {
    const w = world();
    const ctx = context(w, ccr(row.ccr));
    expect(await reconcileFinalizer(ctx)).toBe(row.result);
    expect(w.client.patches).toEqual(row.patch ? [{ cluster: CLUSTER, name: 'instances', body: row.patch }] : []);
    expect(ctx.status.phase).toBe(row.phase);
    expect(ctx.status.changed()).toBe(row.statusChanged);
  });

  it('case 3: the ResourceValid condition says Deleting, stamped now', async () => {
    const w = world();
    const ctx = context(w, ccr({ deleting: true, status: { phase: 'Ready' } }));
    await reconcileFinalizer(ctx);
    expect(ctx.status.condition('ResourceValid')).toEqual({
      type: 'ResourceValid', status: 'False', reason: 'Deleting', message: 'the ClusterCachedResource is being deleted', lastTransitionTime: NOW,
    });
  });

  it('case 4: deleting without our finalizer stops the running child and purges its copies', async () => {
    const w = world();
    w.purger.counts.set(copyKey(), 3);
    const child = await w.children.ensure(KEY, { shard: SHARD, cluster: CLUSTER, gvr: GVR, identityHash: 'h', selector: parseLabelSelector('') }, () => undefined);
    const ctx = context(w, ccr({ deleting: true, finalizers: [] }));
    expect(await reconcileFinalizer(ctx)).toBe('stop');
    expect(w.start.started[0]?.stopped).toBe(true);
    expect(w.children.get(KEY)).toBeUndefined();
    expect(w.purger.purged).toEqual([copyKey()]);
    expect(w.purger.counts.get(copyKey())).toBe(0);
    expect(child.counts()).toEqual({ local: 0, cache: 0 });
  });

  it('case 4: deleting without our finalizer and no child → stop, nothing to purge', async () => {
    const w = world();
    const ctx = context(w, ccr({ deleting: true, finalizers: [] }));
    expect(await reconcileFinalizer(ctx)).toBe('stop');
    expect(w.purger.purged).toEqual([]);
    expect(w.client.patches).toEqual([]);
  });
});
