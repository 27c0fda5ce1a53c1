// ReplicationController over a real MemoryStore cache and a small in-test SourceView (the
// interface the controller declares: a Map of objects plus the informer handlers). Everything is
// asserted on the cache's contents, counts() and the onCountsChanged calls.

import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { deepFreeze } from '../../../../src/apimachinery/object-meta.js';
import type { KubeObject } from '../../../../src/apimachinery/object-meta.js';
import type { GroupVersionResource } from '../../../../src/apimachinery/gvr.js';
import { parseLabelSelector } from '../../../../src/apimachinery/label-selector.js';
import { createCacheStore } from '../../../../src/app/cache-store.js';
import { cacheLocation } from '../../../../src/cachedobjects/cache-location.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../../../../src/cachedobjects/cached-object-resource.js';
import { cachedObjectName } from '../../../../src/cachedobjects/cached-object-name.js';
import { unwrapCachedObject, wrapCachedObject } from '../../../../src/cachedobjects/wrap-cached-object.js';
import { ReplicationController } from '../../../../src/controllers/replication/replication-controller.js';
import type { SourceHandlers, SourceView } from '../../../../src/controllers/replication/source-view.js';
import type { MemoryStore } from '../../../../src/store/memory-store.js';
import type { ObjectKey } from '../../../../src/store/store.js';
import { eventually } from '../../../helpers/kube-http.js';

const GVR: GroupVersionResource = { group: 'machines.svm.io', version: 'v1alpha1', resource: 'instances' };
const SCHEMA = 'v1alpha1.instances.machines.svm.io';
const CLUSTER = 'root';
const SHARD = 'embedded';
const SCOPE = { cluster: cacheLocation(SHARD, CLUSTER), group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE };

let nextRv = 100;

function instance(opts: { name: string; namespace?: string; labels?: Record<string, string>; size?: string }): KubeObject {
  return deepFreeze({
    apiVersion: 'machines.svm.io/v1alpha1',
    kind: 'Instance',
    metadata: {
      name: opts.name,
      ...(opts.namespace ? { namespace: opts.namespace } : {}),
      uid: `uid-${opts.name}`,
      resourceVersion: String(nextRv++),
      labels: opts.labels ?? { app: 'web' },
    },
    spec: { size: opts.size ?? 'large' },
  });
}

/** MapSource is a synced SourceView of one logical cluster, changed by the test. */
class MapSource implements SourceView {
  readonly #objects = new Map<string, KubeObject>();
  readonly #handlers = new Set<SourceHandlers>();

  constructor(objects: KubeObject[] = []) {
    for (const obj of objects) this.#objects.set(keyOf(obj), obj);
  }

  get(cluster: string, namespace: string, name: string): KubeObject | undefined {
    return cluster === CLUSTER ? this.#objects.get(`${namespace}/${name}`) : undefined;
  }

  list(): Iterable<KubeObject> {
    return [...this.#objects.values()];
  }

  get size(): number {
    return this.#objects.size;
  }

  addHandler(handlers: SourceHandlers): () => void {
    for (const obj of this.#objects.values()) handlers.add?.(obj);
    this.#handlers.add(handlers);
    return () => this.#handlers.delete(handlers);
  }

  hasSynced(): boolean {
    return true;
  }

  adopt(stored: KubeObject, equal: KubeObject): void {
    if (this.#objects.get(keyOf(stored)) === stored) this.#objects.set(keyOf(stored), equal);
  }

  /** put adds or updates an object and tells the handlers. */
  put(obj: KubeObject): void {
    const old = this.#objects.get(keyOf(obj));
    this.#objects.set(keyOf(obj), obj);
    for (const h of this.#handlers) {
      if (old) h.update?.(obj, old);
      else h.add?.(obj);
    }
  }

  /** remove deletes an object and tells the handlers. */
  remove(namespace: string, name: string): void {
    const old = this.#objects.get(`${namespace}/${name}`);
    if (!old) return;
    this.#objects.delete(`${namespace}/${name}`);
    for (const h of this.#handlers) h.delete?.(old);
  }

  handlerCount(): number {
    return this.#handlers.size;
  }
}

function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

function copyKey(name: string): ObjectKey {
  return { ...SCOPE, namespace: '', name };
}

/** copies lists the originals (`ns/name`) the cache holds copies of, sorted. */
async function copies(cache: MemoryStore): Promise<string[]> {
  const page = await cache.list(SCOPE);
  return page.items.map((co) => keyOf(unwrapCachedObject(co))).sort();
}

interface Harness {
  readonly cache: MemoryStore;
  readonly source: MapSource;
  readonly controller: ReplicationController;
  countsChanged: number;
}

const running: ReplicationController[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
});

async function start(objects: KubeObject[], selector = 'app=web', cache: MemoryStore = createCacheStore(1000)): Promise<Harness> {
  const source = new MapSource(objects);
  const harness: Harness = {
    cache,
    source,
    countsChanged: 0,
    controller: new ReplicationController({
      spec: { shard: SHARD, cluster: CLUSTER, gvr: GVR, identityHash: 'id', selector: parseLabelSelector(selector) },
      source,
      cache,
      log: pino({ level: 'silent' }),
      workers: 2,
      onCountsChanged: () => {
        harness.countsChanged++;
      },
    }),
  };
  running.push(harness.controller);
  await harness.controller.start();
  return harness;
}

describe('ReplicationController', () => {
  it('copies every selected source object at start, and counts them', async () => {
    const h = await start([instance({ name: 'web-1' }), instance({ name: 'web-2' }), instance({ name: 'db-1', labels: { app: 'db' } })]);
    await eventually(async () => expect(await copies(h.cache)).toEqual(['/web-1', '/web-2']));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 2, cache: 2 }));
    expect(h.countsChanged).toBeGreaterThanOrEqual(2);
    // The counts move when the cache commits a copy; the key is done a few steps later.
    await eventually(() => expect(h.controller.hasSynced()).toBe(true));
    const copy = await h.cache.get(copyKey(`${SCHEMA}.web-1`));
    expect(unwrapCachedObject(copy)).toEqual(h.source.get(CLUSTER, '', 'web-1'));
  });

  it('copies namespaced source objects under <schema>.<namespace>.<name>', async () => {
    const h = await start([instance({ namespace: 'team-a', name: 'settings' })]);
    await eventually(async () => expect((await h.cache.get(copyKey(`${SCHEMA}.team-a.settings`))).metadata.labels?.['cache.kcp.io/object-original-namespace']).toBe('team-a'));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 1, cache: 1 }));
  });

  it('counts follow adds, updates and deletes of source objects, and each change is signalled', async () => {
    const h = await start([instance({ name: 'web-1' })]);
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 1, cache: 1 }));

    const before = h.countsChanged;
    h.source.put(instance({ name: 'web-2' }));
    await eventually(async () => expect(await copies(h.cache)).toEqual(['/web-1', '/web-2']));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 2, cache: 2 }));
    expect(h.countsChanged).toBeGreaterThan(before);

    h.source.put(instance({ name: 'web-2', size: 'small' }));
    await eventually(async () => expect((unwrapCachedObject(await h.cache.get(copyKey(`${SCHEMA}.web-2`))).spec as { size: string }).size).toBe('small'));
    expect(h.controller.counts()).toEqual({ local: 2, cache: 2 });

    const beforeDelete = h.countsChanged;
    h.source.remove('', 'web-1');
    await eventually(async () => expect(await copies(h.cache)).toEqual(['/web-2']));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 1, cache: 1 }));
    expect(h.countsChanged).toBeGreaterThan(beforeDelete);
  });

  it('a source object whose labels stop matching loses its copy; matching again brings it back', async () => {
    const h = await start([instance({ name: 'web-1' }), instance({ name: 'web-2' })]);
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 2, cache: 2 }));
    h.source.put(instance({ name: 'web-1', labels: { app: 'db' } }));
    await eventually(async () => expect(await copies(h.cache)).toEqual(['/web-2']));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 1, cache: 1 }));
    h.source.put(instance({ name: 'web-1', labels: { app: 'web' } }));
    await eventually(async () => expect(await copies(h.cache)).toEqual(['/web-1', '/web-2']));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 2, cache: 2 }));
  });

  it('updateSelector deletes the copies no longer selected and copies the newly selected objects', async () => {
    const h = await start([instance({ name: 'web-1' }), instance({ name: 'web-2' }), instance({ name: 'db-1', labels: { app: 'db' } })]);
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 2, cache: 2 }));
    h.controller.updateSelector(parseLabelSelector('app=db'));
    expect(h.controller.counts().local).toBe(1);
    await eventually(async () => expect(await copies(h.cache)).toEqual(['/db-1']));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 1, cache: 1 }));

    const before = h.countsChanged;
    h.controller.updateSelector(parseLabelSelector('app in (db,web)'));
    await eventually(async () => expect(await copies(h.cache)).toEqual(['/db-1', '/web-1', '/web-2']));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 3, cache: 3 }));
    expect(h.countsChanged).toBeGreaterThan(before);
  });

  it('updateSelector with an equal selector changes nothing', async () => {
    const h = await start([instance({ name: 'web-1' })]);
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 1, cache: 1 }));
    const before = h.countsChanged;
    h.controller.updateSelector(parseLabelSelector('app = web'));
    expect(h.controller.counts()).toEqual({ local: 1, cache: 1 });
    expect(h.countsChanged).toBe(before);
  });

  it('a copy deleted behind the controller\'s back is recreated', async () => {
    const h = await start([instance({ name: 'web-1' })]);
    await eventually(async () => expect(await copies(h.cache)).toEqual(['/web-1']));
    const first = await h.cache.get(copyKey(`${SCHEMA}.web-1`));
    await h.cache.delete(copyKey(`${SCHEMA}.web-1`));
    await eventually(async () => expect((await h.cache.get(copyKey(`${SCHEMA}.web-1`))).metadata.uid).not.toBe(first.metadata.uid));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 1, cache: 1 }));
  });

  it('a copy edited behind the controller\'s back is repaired', async () => {
    const h = await start([instance({ name: 'web-1' })]);
    await eventually(async () => expect(await copies(h.cache)).toEqual(['/web-1']));
    const copy = await h.cache.get(copyKey(`${SCHEMA}.web-1`));
    const raw = unwrapCachedObject(copy);
    await h.cache.update(copyKey(`${SCHEMA}.web-1`), { ...copy, spec: { raw: { ...raw, spec: { size: 'tampered' } } } });
    await eventually(async () => expect(unwrapCachedObject(await h.cache.get(copyKey(`${SCHEMA}.web-1`))).spec).toEqual({ size: 'large' }));
  });

  it('a copy holding its own equal tree of the original (read back after a restart) stays as it is, and the source view keeps that tree', async () => {
    const original = instance({ name: 'web-1' });
    const cache = createCacheStore(1000);
    const readBack = deepFreeze(structuredClone(original));
    const written = await cache.create(SCOPE, wrapCachedObject({
      original: readBack, gvr: GVR, shard: SHARD, cluster: CLUSTER, identityHash: 'id', name: cachedObjectName(GVR, '', 'web-1'),
    }));
    const h = await start([original], 'app=web', cache);
    await eventually(() => expect(h.controller.hasSynced()).toBe(true));
    const copy = await h.cache.get(copyKey(`${SCHEMA}.web-1`));
    expect(copy.metadata.resourceVersion).toBe(written.metadata.resourceVersion);
    expect(h.source.get(CLUSTER, '', 'web-1')).toBe(unwrapCachedObject(copy));
    expect(h.controller.counts()).toEqual({ local: 1, cache: 1 });
  });

  it('a copy whose labels were stripped is repaired and still counted once', async () => {
    const h = await start([instance({ name: 'web-1' })]);
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 1, cache: 1 }));
    const copy = await h.cache.get(copyKey(`${SCHEMA}.web-1`));
    await h.cache.update(copyKey(`${SCHEMA}.web-1`), { ...copy, metadata: { ...copy.metadata, labels: {} } });
    await eventually(async () => expect((await h.cache.get(copyKey(`${SCHEMA}.web-1`))).metadata.labels).toEqual(copy.metadata.labels));
    expect(await copies(h.cache)).toEqual(['/web-1']);
    expect(h.controller.counts()).toEqual({ local: 1, cache: 1 });
  });

  it('stop() stops copying, unsubscribes from the source, and leaves the copies in place', async () => {
    const h = await start([instance({ name: 'web-1' })]);
    await eventually(async () => expect(await copies(h.cache)).toEqual(['/web-1']));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 1, cache: 1 }));
    await h.controller.stop();
    expect(h.source.handlerCount()).toBe(0);
    const changes = h.countsChanged;
    h.source.put(instance({ name: 'web-2' }));
    h.source.remove('', 'web-1');
    await h.cache.delete(copyKey(`${SCHEMA}.web-1`));
    // Source handlers and cache watchers are called synchronously, so a controller still listening
    // would have signalled these changes and queued work by now; it heard nothing. (Its counts are
    // read from the source view and the cache, so they are not what shows it stopped.)
    expect(h.countsChanged).toBe(changes);
    expect(h.controller.isIdle()).toBe(true);
    expect(await copies(h.cache)).toEqual([]);
  });

  it('copies only this (shard, cluster): copies of another location are neither read nor counted', async () => {
    const h = await start([instance({ name: 'web-1' })]);
    const elsewhere = { ...SCOPE, cluster: cacheLocation(SHARD, 'other') };
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 1, cache: 1 }));
    const mine = await h.cache.get(copyKey(`${SCHEMA}.web-1`));
    await h.cache.create(elsewhere, { ...mine, metadata: { name: mine.metadata.name, labels: mine.metadata.labels, annotations: { ...mine.metadata.annotations, 'kcp.io/cluster': 'other' } } });
    // The cache tells its watchers synchronously: had the copy elsewhere reached this controller,
    // it would be counted already.
    expect(h.controller.counts()).toEqual({ local: 1, cache: 1 });
    // A later change here is counted, and the copy elsewhere still is not.
    h.source.put(instance({ name: 'web-2' }));
    await eventually(() => expect(h.controller.counts()).toEqual({ local: 2, cache: 2 }));
    expect((await h.cache.list(elsewhere)).items).toHaveLength(1);
  });
});
