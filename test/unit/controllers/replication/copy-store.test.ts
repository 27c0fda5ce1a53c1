// CopyStore over a real MemoryStore with the CachedObject indexes registered (createCacheStore):
// finding a source object's copy by index (and, for a tampered copy, by the names it can have),
// choosing a name, and writing copies guarded by the resourceVersion read.

import { beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../../src/errors.js';
import type { AppError } from '../../../../src/errors.js';
import { deepFreeze } from '../../../../src/apimachinery/object-meta.js';
import type { KubeObject } from '../../../../src/apimachinery/object-meta.js';
import type { GroupVersionResource } from '../../../../src/apimachinery/gvr.js';
import { parseLabelSelector } from '../../../../src/apimachinery/label-selector.js';
import { createCacheStore } from '../../../../src/app/cache-store.js';
import { cacheLocation } from '../../../../src/cachedobjects/cache-location.js';
import { cachedObjectName, hashedName } from '../../../../src/cachedobjects/cached-object-name.js';
import { originalCopyQuery } from '../../../../src/cachedobjects/cached-object-indexes.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../../../../src/cachedobjects/cached-object-resource.js';
import { unwrapCachedObject, wrapCachedObject } from '../../../../src/cachedobjects/wrap-cached-object.js';
import { CopyStore } from '../../../../src/controllers/replication/copy-store.js';
import type { ReplicationSpec } from '../../../../src/controllers/replication/replication-spec.js';
import type { MemoryStore } from '../../../../src/store/memory-store.js';
import type { ObjectKey, ResourceRef } from '../../../../src/store/store.js';

const GVR: GroupVersionResource = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';

function spec(overrides: Partial<ReplicationSpec> = {}): ReplicationSpec {
  return { shard: 'embedded', cluster: 'root', gvr: GVR, identityHash: 'id', selector: parseLabelSelector(''), ...overrides };
}

function instance(opts: { name?: string; namespace?: string; rv?: string; labels?: Record<string, string> } = {}): KubeObject {
  return deepFreeze({
    apiVersion: 'machines.svm.io/v1alpha1',
    kind: 'Instance',
    metadata: {
      name: opts.name ?? 'web-1',
      ...(opts.namespace ? { namespace: opts.namespace } : {}),
      uid: `uid-${opts.namespace ?? ''}-${opts.name ?? 'web-1'}`,
      resourceVersion: opts.rv ?? '10',
      labels: opts.labels ?? { app: 'web' },
    },
    spec: { size: 'large' },
  });
}

function ref(s: ReplicationSpec = spec()): ResourceRef {
  return { cluster: cacheLocation(s.shard, s.cluster), group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE };
}

function keyOf(name: string, s: ReplicationSpec = spec()): ObjectKey {
  return { ...ref(s), namespace: '', name };
}

/** wrap is the copy a controller with spec s writes for original, under name. */
function wrap(original: KubeObject, name: string, s: ReplicationSpec = spec()): KubeObject {
  return wrapCachedObject({ original, gvr: s.gvr, shard: s.shard, cluster: s.cluster, identityHash: s.identityHash, name });
}

/** stripped is a copy whose labels someone removed. */
function stripped(copy: KubeObject): KubeObject {
  return { ...copy, metadata: { ...copy.metadata, labels: {} } };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('CopyStore', () => {
  let cache: MemoryStore;
  let copies: CopyStore;

  beforeEach(() => {
    cache = createCacheStore(1000);
    copies = new CopyStore(cache, spec());
  });

  describe('find', () => {
    it('finds a copy by index, whatever its name', async () => {
      await cache.create(ref(), wrap(instance(), `${SCHEMA}.not-the-usual-name`));
      const found = await copies.find('', 'web-1');
      expect(found?.metadata.name).toBe(`${SCHEMA}.not-the-usual-name`);
      expect(unwrapCachedObject(found!).metadata.name).toBe('web-1');
    });

    it('finds a namespaced copy by namespace and name, and not by name alone', async () => {
      await cache.create(ref(), wrap(instance({ namespace: 'team-a', name: 'settings' }), `${SCHEMA}.team-a.settings`));
      expect((await copies.find('team-a', 'settings'))?.metadata.name).toBe(`${SCHEMA}.team-a.settings`);
      expect(await copies.find('', 'settings')).toBeUndefined();
      expect(await copies.find('team-b', 'settings')).toBeUndefined();
    });

    it('does not find copies of other originals, other schemas, other clusters or other shards', async () => {
      const other = spec({ cluster: 'other' });
      const otherShard = spec({ shard: 'shard-2' });
      const v2 = spec({ gvr: { ...GVR, version: 'v2' } });
      await cache.create(ref(), wrap(instance({ name: 'web-2' }), `${SCHEMA}.web-2`));
      await cache.create(ref(other), wrap(instance(), `${SCHEMA}.web-1`, other));
      await cache.create(ref(otherShard), wrap(instance(), `${SCHEMA}.web-1`, otherShard));
      await cache.create(ref(v2), wrap(instance(), 'v2.instances.machines.svm.io.web-1', v2));
      expect(await copies.find('', 'web-1')).toBeUndefined();
      expect((await new CopyStore(cache, other).find('', 'web-1'))?.metadata.annotations?.['kcp.io/cluster']).toBe('other');
    });

    it('finds nothing in an empty cache', async () => {
      expect(await copies.find('', 'web-1')).toBeUndefined();
    });

    it('finds a copy whose labels were stripped by its readable name', async () => {
      await cache.create(ref(), stripped(wrap(instance(), `${SCHEMA}.web-1`)));
      const found = await copies.find('', 'web-1');
      expect(found?.metadata.name).toBe(`${SCHEMA}.web-1`);
      expect(found?.metadata.labels).toEqual({});
    });

    it('finds a copy whose labels were stripped by its hashed name', async () => {
      const hashed = hashedName(GVR, '', 'web-1');
      await cache.create(ref(), stripped(wrap(instance(), hashed)));
      expect((await copies.find('', 'web-1'))?.metadata.name).toBe(hashed);
    });

    it('finds a copy at its hashed name whose labels were stripped later, among copies at their readable names', async () => {
      // The hashed name is only looked at while the location holds something away from its readable name.
      for (const name of ['web-2', 'web-3']) await copies.create(copies.desired(instance({ name }), undefined));
      await cache.create(ref(), wrap(instance({ namespace: 'a.b', name: 'c' }), `${SCHEMA}.a.b.c`));
      const ours = await copies.create(copies.desired(instance({ namespace: 'a', name: 'b.c' }), undefined));
      await cache.update(keyOf(hashedName(GVR, 'a', 'b.c')), stripped(ours as KubeObject));
      const found = copies.find('a', 'b.c');
      expect(found?.metadata.name).toBe(hashedName(GVR, 'a', 'b.c'));
      expect(found?.metadata.labels).toEqual({});
      expect(copies.find('', 'web-4')).toBeUndefined();
    });

    it('does not take another original\'s intact copy at the readable name for ours', async () => {
      // `<schema>.a.b.c` is the readable name of both a/b.c and a.b/c.
      await cache.create(ref(), wrap(instance({ namespace: 'a.b', name: 'c' }), `${SCHEMA}.a.b.c`));
      expect(await copies.find('a', 'b.c')).toBeUndefined();
    });
  });

  describe('desired', () => {
    it('a new copy gets the readable name and wraps the original with this spec', async () => {
      const desired = await copies.desired(instance(), undefined);
      expect(desired).toEqual(wrap(instance(), `${SCHEMA}.web-1`));
      expect(desired.metadata.name).toBe(cachedObjectName(GVR, '', 'web-1'));
    });

    it('keeps an existing copy\'s name', async () => {
      const existing = await cache.create(ref(), wrap(instance(), `${SCHEMA}.somewhere-else`));
      const desired = await copies.desired(instance({ rv: '11' }), existing);
      expect(desired.metadata.name).toBe(`${SCHEMA}.somewhere-else`);
      expect(unwrapCachedObject(desired).metadata.resourceVersion).toBe('11');
    });

    it('a readable name held by another original\'s copy leads to the hashed name', async () => {
      await cache.create(ref(), wrap(instance({ namespace: 'a.b', name: 'c' }), `${SCHEMA}.a.b.c`));
      const desired = await copies.desired(instance({ namespace: 'a', name: 'b.c' }), undefined);
      expect(desired.metadata.name).toBe(hashedName(GVR, 'a', 'b.c'));
      await copies.create(desired);
      expect((await copies.find('a', 'b.c'))?.metadata.name).toBe(hashedName(GVR, 'a', 'b.c'));
      expect((await copies.find('a.b', 'c'))?.metadata.name).toBe(`${SCHEMA}.a.b.c`);
    });

    it('a readable name held by this original\'s own copy stays readable', async () => {
      await cache.create(ref(), wrap(instance(), `${SCHEMA}.web-1`));
      expect((await copies.desired(instance({ rv: '11' }), undefined)).metadata.name).toBe(`${SCHEMA}.web-1`);
    });

    it('a readable name held by a copy whose labels were stripped is treated as ours', async () => {
      await cache.create(ref(), stripped(wrap(instance(), `${SCHEMA}.web-1`)));
      expect((await copies.desired(instance(), undefined)).metadata.name).toBe(`${SCHEMA}.web-1`);
    });
  });

  it('a copy whose labels were stripped is found, is not up to date, and is repaired in place', async () => {
    await cache.create(ref(), stripped(wrap(instance(), `${SCHEMA}.web-1`)));
    const found = await copies.find('', 'web-1');
    expect(found).toBeDefined();
    const desired = await copies.desired(instance(), found);
    expect(desired.metadata.name).toBe(`${SCHEMA}.web-1`);
    expect(copies.isUpToDate(found!, desired)).toBe(false);
    await copies.update(desired, found!);
    const repaired = await cache.get(keyOf(`${SCHEMA}.web-1`));
    expect(repaired.metadata.labels).toEqual(desired.metadata.labels);
    expect(copies.isUpToDate(repaired, desired)).toBe(true);
    // The repaired copy is indexed again.
    const query = originalCopyQuery({ shard: 'embedded', cluster: 'root', schema: GVR, namespace: '', name: 'web-1' });
    const indexed = await cache.list({ ...ref(), cluster: query.cluster }, { index: query.index });
    expect(indexed.items.map((o) => o.metadata.name)).toEqual([`${SCHEMA}.web-1`]);
  });

  it('create stores the copy; creating it twice is AlreadyExists', async () => {
    const desired = await copies.desired(instance(), undefined);
    await copies.create(desired);
    const stored = await cache.get(keyOf(`${SCHEMA}.web-1`));
    expect(stored.spec).toEqual({ raw: instance() });
    expect((await rejection(copies.create(desired))).code).toBe('AlreadyExists');
  });

  it('isUpToDate tells an equal copy from a stale one', async () => {
    const desired = await copies.desired(instance(), undefined);
    await copies.create(desired);
    const stored = await cache.get(keyOf(`${SCHEMA}.web-1`));
    expect(copies.isUpToDate(stored, desired)).toBe(true);
    expect(copies.isUpToDate(stored, await copies.desired(instance({ rv: '11' }), stored))).toBe(false);
  });

  it('update replaces the copy read', async () => {
    await copies.create(await copies.desired(instance(), undefined));
    const existing = (await copies.find('', 'web-1'))!;
    await copies.update(await copies.desired(instance({ rv: '11' }), existing), existing);
    const stored = await cache.get(keyOf(`${SCHEMA}.web-1`));
    expect(unwrapCachedObject(stored).metadata.resourceVersion).toBe('11');
    expect(stored.metadata.annotations?.['cache.kcp.io/original-resource-version']).toBe('11');
    expect(stored.metadata.uid).toBe(existing.metadata.uid);
  });

  it('update is guarded by the resourceVersion read: a concurrent change → Conflict, and the concurrent change stays', async () => {
    await copies.create(await copies.desired(instance(), undefined));
    const existing = (await copies.find('', 'web-1'))!;
    const concurrent = { ...existing, metadata: { ...existing.metadata, labels: { ...existing.metadata.labels, touched: 'yes' } } };
    await cache.update(keyOf(`${SCHEMA}.web-1`), concurrent);
    const err = await rejection(copies.update(await copies.desired(instance({ rv: '11' }), existing), existing));
    expect(err.code).toBe('Conflict');
    const stored = await cache.get(keyOf(`${SCHEMA}.web-1`));
    expect(stored.metadata.labels?.['touched']).toBe('yes');
    expect(unwrapCachedObject(stored).metadata.resourceVersion).toBe('10');
  });

  it('update of a copy deleted meanwhile → NotFound', async () => {
    await copies.create(await copies.desired(instance(), undefined));
    const existing = (await copies.find('', 'web-1'))!;
    await cache.delete(keyOf(`${SCHEMA}.web-1`));
    expect((await rejection(copies.update(await copies.desired(instance({ rv: '11' }), existing), existing))).code).toBe('NotFound');
  });

  it('delete removes the copy, even one holding finalizers; deleting a missing copy is fine', async () => {
    const desired = await copies.desired(instance(), undefined);
    await cache.create(ref(), { ...desired, metadata: { ...desired.metadata, finalizers: ['someone/else'] } });
    const existing = (await copies.find('', 'web-1'))!;
    await copies.delete(existing);
    expect(await copies.find('', 'web-1')).toBeUndefined();
    await expect(copies.delete(existing)).resolves.toBeUndefined();
  });

  it('schemaFilter matches this schema\'s copies only', async () => {
    const mine = wrap(instance(), `${SCHEMA}.web-1`);
    const v2 = spec({ gvr: { ...GVR, version: 'v2' } });
    expect(copies.schemaFilter.matches(mine)).toBe(true);
    expect(copies.schemaFilter.matches(wrap(instance(), 'v2.instances.machines.svm.io.web-1', v2))).toBe(false);
    expect(copies.schemaFilter.matches(stripped(mine))).toBe(false);
    expect(copies.schemaFilter.key).toBe(`schema=${SCHEMA}`);
  });
});
