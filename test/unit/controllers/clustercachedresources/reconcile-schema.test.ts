// Step 3, reconcileSchema: the spec names a resource, this CCR is the only live one for it in its
// logical cluster (the older twin wins), the resource is served, and kind/scope are recorded.

import { describe, expect, it } from 'vitest';
import { parseLabelSelector } from '../../../../src/apimachinery/label-selector.js';
import { RESOURCE_KIND_ANNOTATION, RESOURCE_SCOPE_ANNOTATION } from '../../../../src/controllers/clustercachedresources/ccr-view.js';
import { reconcileSchema, RETRY_UNKNOWN_RESOURCE_MS } from '../../../../src/controllers/clustercachedresources/reconcile-schema.js';
import { ccr, CLUSTER, context, copyKey, EARLIER, GVR, KIND_ANNOTATIONS, NOW, resolver, SHARD, world } from './fakes.js';

describe('reconcileSchema: invalid spec', () => {
  const rows = [
    { name: 'no spec.resource', gvr: { resource: '' } },
    { name: 'no spec.version', gvr: { version: '' } },
  ];

  it.each(rows)('$name → ResourceValid=False InvalidSpec, stop, nothing looked up', async ({ gvr }) => {
    const w = world();
    const ctx = context(w, ccr({ gvr }));
    expect(await reconcileSchema(ctx)).toBe('stop');
    expect(ctx.status.condition('ResourceValid')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(w.resolve.calls).toBe(0);
    expect(w.client.patches).toEqual([]);
  });
});

describe('reconcileSchema: duplicates (the older twin wins)', () => {
  interface Row {
    readonly name: string;
    readonly mine: { name: string; created: string };
    readonly other: Parameters<typeof ccr>[0];
    readonly duplicate: boolean;
  }

  const rows: Row[] = [
    { name: 'an older twin → Duplicate', mine: { name: 'b', created: NOW }, other: { name: 'a', created: EARLIER }, duplicate: true },
    { name: 'an older twin with a later name → Duplicate', mine: { name: 'a', created: NOW }, other: { name: 'z', created: EARLIER }, duplicate: true },
    { name: 'a younger twin → this one wins', mine: { name: 'b', created: EARLIER }, other: { name: 'a', created: NOW }, duplicate: false },
    { name: 'same timestamp, the other name sorts first → Duplicate', mine: { name: 'b', created: EARLIER }, other: { name: 'a', created: EARLIER }, duplicate: true },
    { name: 'same timestamp, this name sorts first → this one wins', mine: { name: 'a', created: EARLIER }, other: { name: 'b', created: EARLIER }, duplicate: false },
    { name: 'an older twin at another version of the same group/resource → Duplicate', mine: { name: 'b', created: NOW }, other: { name: 'a', created: EARLIER, gvr: { version: 'v2' } }, duplicate: true },
    { name: 'an older twin being deleted does not count', mine: { name: 'b', created: NOW }, other: { name: 'a', created: EARLIER, deleting: true }, duplicate: false },
    { name: 'an older CCR of another resource is no twin', mine: { name: 'b', created: NOW }, other: { name: 'a', created: EARLIER, gvr: { resource: 'disks' } }, duplicate: false },
    { name: 'an older CCR of another group is no twin', mine: { name: 'b', created: NOW }, other: { name: 'a', created: EARLIER, gvr: { group: 'other.io' } }, duplicate: false },
  ];

  it.each(rows)('$name', async (row) => {
    const w = world();
    w.others = [ccr(row.other)];
    const ctx = context(w, ccr(row.mine));
    const result = await reconcileSchema(ctx);
    if (row.duplicate) {
      expect(result).toBe('stop');
      expect(ctx.status.condition('ResourceValid')).toMatchObject({
        status: 'False',
        reason: 'Duplicate',
        message: `ClusterCachedResource "${row.other?.name ?? ''}" already replicates instances.machines.svm.io in logical cluster ${CLUSTER}`,
      });
      expect(w.resolve.calls).toBe(0);
    } else {
      expect(result).toBe('continue');
      expect(ctx.status.condition('ResourceValid')).toBeUndefined();
    }
  });

  it('a Duplicate stops its own child without purging (the copies belong to the twin)', async () => {
    const w = world();
    w.purger.counts.set(copyKey(), 3);
    await w.children.ensure(`${CLUSTER}|b`, { shard: SHARD, cluster: CLUSTER, gvr: GVR, identityHash: 'h', selector: parseLabelSelector('') }, () => undefined);
    w.others = [ccr({ name: 'a', created: EARLIER })];
    const ctx = context(w, ccr({ name: 'b', created: NOW }));
    expect(await reconcileSchema(ctx)).toBe('stop');
    expect(w.start.started[0]?.stopped).toBe(true);
    expect(w.children.get(`${CLUSTER}|b`)).toBeUndefined();
    expect(w.purger.purged).toEqual([]);
    expect(w.purger.counts.get(copyKey())).toBe(3);
  });
});

describe('reconcileSchema: the resource', () => {
  it('an unknown resource → ResourceValid=False ResourceNotFound, stop, and a requeue later', async () => {
    const w = world({ resolve: resolver({}) });
    const ctx = context(w, ccr());
    expect(await reconcileSchema(ctx)).toBe('stop');
    expect(ctx.status.condition('ResourceValid')).toMatchObject({
      status: 'False',
      reason: 'ResourceNotFound',
      message: `the server does not serve instances.machines.svm.io version v1alpha1 in logical cluster ${CLUSTER}`,
    });
    expect(ctx.requeueAfterMs).toBe(RETRY_UNKNOWN_RESOURCE_MS);
    expect(w.client.patches).toEqual([]);
  });

  interface Row {
    readonly name: string;
    readonly annotations: Record<string, string>;
    readonly namespaced: boolean;
    readonly patch: Record<string, string> | undefined;
  }

  const rows: Row[] = [
    {
      name: 'annotations missing → patch kind and scope (stop)',
      annotations: {}, namespaced: false,
      patch: { [RESOURCE_KIND_ANNOTATION]: 'Instance', [RESOURCE_SCOPE_ANNOTATION]: 'Cluster' },
    },
    {
      name: 'only the kind annotation present → patch both (stop)',
      annotations: { [RESOURCE_KIND_ANNOTATION]: 'Instance' }, namespaced: false,
      patch: { [RESOURCE_KIND_ANNOTATION]: 'Instance', [RESOURCE_SCOPE_ANNOTATION]: 'Cluster' },
    },
    {
      name: 'a different scope (the resource became namespaced) → patch Namespaced (stop)',
      annotations: { ...KIND_ANNOTATIONS }, namespaced: true,
      patch: { [RESOURCE_KIND_ANNOTATION]: 'Instance', [RESOURCE_SCOPE_ANNOTATION]: 'Namespaced' },
    },
    {
      name: 'a different kind → patch it (stop)',
      annotations: { [RESOURCE_KIND_ANNOTATION]: 'Machine', [RESOURCE_SCOPE_ANNOTATION]: 'Cluster' }, namespaced: false,
      patch: { [RESOURCE_KIND_ANNOTATION]: 'Instance', [RESOURCE_SCOPE_ANNOTATION]: 'Cluster' },
    },
    {
      name: 'annotations present and right → continue, no write',
      annotations: { ...KIND_ANNOTATIONS, unrelated: 'kept' }, namespaced: false, patch: undefined,
    },
    {
      name: 'namespaced resource with its annotations right → continue, no write',
      annotations: { [RESOURCE_KIND_ANNOTATION]: 'Instance', [RESOURCE_SCOPE_ANNOTATION]: 'Namespaced' }, namespaced: true, patch: undefined,
    },
  ];

  it.each(rows)('$name', async (row) => {
    const w = world({ resolve: resolver({ 'v1alpha1.instances.machines.svm.io': { kind: 'Instance', namespaced: row.namespaced } }) });
    const ctx = context(w, ccr({ annotations: row.annotations }));
    const result = await reconcileSchema(ctx);
    expect(result).toBe(row.patch ? 'stop' : 'continue');
    expect(w.client.patches).toEqual(row.patch ? [{ cluster: CLUSTER, name: 'instances', body: { metadata: { annotations: row.patch } } }] : []);
    expect(ctx.status.changed()).toBe(false);
  });
});
