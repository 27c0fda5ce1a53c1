// ChildRegistry: one child per CCR key, started once, re-selected for the same source, replaced
// (old copies purged) when the GVR or identity changes, removed with or without a purge.

import { describe, expect, it } from 'vitest';
import { parseLabelSelector } from '../../../../src/apimachinery/label-selector.js';
import { ChildRegistry } from '../../../../src/controllers/clustercachedresources/child-registry.js';
import type { ReplicationSpec } from '../../../../src/controllers/replication/replication-spec.js';
import { CLUSTER, copyKey, GVR, KEY, SHARD, world } from './fakes.js';

function spec(overrides: Partial<ReplicationSpec> = {}): ReplicationSpec {
  return { shard: SHARD, cluster: CLUSTER, gvr: GVR, identityHash: 'h', selector: parseLabelSelector('app=web'), ...overrides };
}

const noop = (): void => undefined;

describe('ChildRegistry', () => {
  it('ensure starts a child once; later calls return the same child', async () => {
    const w = world();
    const first = await w.children.ensure(KEY, spec(), noop);
    const second = await w.children.ensure(KEY, spec(), noop);
    expect(second).toBe(first);
    expect(w.start.started).toHaveLength(1);
    expect(w.children.get(KEY)).toBe(first);
    expect(w.children.children()).toEqual([first]);
  });

  it('ensure hands the spec and the counts callback to the child it starts', async () => {
    const w = world();
    let called = 0;
    await w.children.ensure(KEY, spec(), () => called++);
    expect(w.start.started[0]?.spec).toEqual(spec());
    w.start.started[0]?.onCountsChanged();
    expect(called).toBe(1);
  });

  it('ensure with the same GVR and a new selector updates the running child\'s selector', async () => {
    const w = world();
    await w.children.ensure(KEY, spec(), noop);
    await w.children.ensure(KEY, spec({ selector: parseLabelSelector('app=db') }), noop);
    expect(w.start.started).toHaveLength(1);
    expect(w.start.started[0]?.selectors).toEqual(['app=web', 'app=db']);
    expect(w.start.started[0]?.stopped).toBe(false);
    expect(w.purger.purged).toEqual([]);
  });

  const replacements = [
    { name: 'a new version', next: spec({ gvr: { ...GVR, version: 'v2' } }) },
    { name: 'a new resource', next: spec({ gvr: { ...GVR, resource: 'disks' } }) },
    { name: 'a new group', next: spec({ gvr: { ...GVR, group: 'other.io' } }) },
    { name: 'a new identity hash', next: spec({ identityHash: 'h2' }) },
  ];

  it.each(replacements)('ensure with $name stops the old child, purges its copies and starts a new one', async ({ next }) => {
    const w = world();
    w.purger.counts.set(copyKey(), 4);
    const old = await w.children.ensure(KEY, spec(), noop);
    const replaced = await w.children.ensure(KEY, next, noop);
    expect(replaced).not.toBe(old);
    expect(w.start.started.map((c) => c.stopped)).toEqual([true, false]);
    expect(w.start.started[1]?.spec).toEqual(next);
    expect(w.purger.purged).toEqual([copyKey()]);
    expect(w.purger.counts.get(copyKey())).toBe(0);
    expect(w.children.get(KEY)).toBe(replaced);
  });

  it('remove with purge stops the child and purges its copies', async () => {
    const w = world();
    w.purger.counts.set(copyKey(), 2);
    await w.children.ensure(KEY, spec(), noop);
    await w.children.remove(KEY, { purge: true });
    expect(w.start.started[0]?.stopped).toBe(true);
    expect(w.purger.purged).toEqual([copyKey()]);
    expect(w.children.get(KEY)).toBeUndefined();
  });

  it('remove with purge leaves the copies when another CCR\'s child replicates the same resource there', async () => {
    const w = world();
    w.purger.counts.set(copyKey(), 2);
    await w.children.ensure(KEY, spec(), noop);
    await w.children.ensure(`${CLUSTER}|successor`, spec({ identityHash: 'other' }), noop);
    await w.children.remove(KEY, { purge: true });
    expect(w.start.started[0]?.stopped).toBe(true);
    expect(w.purger.purged).toEqual([]);
    await w.children.remove(`${CLUSTER}|successor`, { purge: true });
    expect(w.purger.purged).toEqual([copyKey()]);
  });

  it('remove with purge leaves the copies when another live CCR names the same resource there, its child not started yet', async () => {
    const w = world();
    w.purger.counts.set(copyKey(), 3);
    const asked: Array<[string, string]> = [];
    const claimed = (key: string, s: ReplicationSpec): boolean => {
      asked.push([key, s.gvr.resource]);
      return true;
    };
    const children = new ChildRegistry(w.start, w.purger, claimed);
    await children.ensure(KEY, spec(), noop);
    await children.remove(KEY, { purge: true });
    expect(w.start.started[0]?.stopped).toBe(true);
    expect(w.purger.purged).toEqual([]);
    expect(asked).toEqual([[KEY, GVR.resource]]);
  });

  it('remove without purge stops the child and leaves its copies', async () => {
    const w = world();
    w.purger.counts.set(copyKey(), 2);
    await w.children.ensure(KEY, spec(), noop);
    await w.children.remove(KEY, { purge: false });
    expect(w.start.started[0]?.stopped).toBe(true);
    expect(w.purger.purged).toEqual([]);
    expect(w.purger.counts.get(copyKey())).toBe(2);
    expect(w.children.get(KEY)).toBeUndefined();
  });

  it('remove of an unknown key does nothing', async () => {
    const w = world();
    await w.children.remove(KEY, { purge: true });
    expect(w.purger.purged).toEqual([]);
  });

  it('children are kept per key; stopAll stops every one without purging', async () => {
    const w = world();
    await w.children.ensure(KEY, spec(), noop);
    await w.children.ensure(`${CLUSTER}|disks`, spec({ gvr: { ...GVR, resource: 'disks' } }), noop);
    expect(w.children.children()).toHaveLength(2);
    await w.children.stopAll();
    expect(w.start.started.map((c) => c.stopped)).toEqual([true, true]);
    expect(w.purger.purged).toEqual([]);
    expect(w.children.children()).toEqual([]);
  });
});
