// What the facades read and write through: the read model (cache ⊕ overlay, waiting for
// replication when asked) and the write service (to the sources, recorded in the overlay). The
// overlay exists only when the config turns it on (see createOverlay), so reads and writes pay
// nothing otherwise.

import type { Config } from '../config/config.js';
import { unwrapCachedObject } from '../cachedobjects/wrap-cached-object.js';
import { KeyedMutex } from '../overlay/key-lock.js';
import { overlayGvks } from '../overlay/overlay-gvks.js';
import type { EvictionCause } from '../overlay/overlay.js';
import type { OverlayKey } from '../overlay/overlay-key.js';
import type { OverlayRecorder } from '../overlay/overlay-recorder.js';
import { CacheCopies } from '../read/cache-copies.js';
import { createReadModel } from '../read/create-read-model.js';
import type { Consistency, ReadModel } from '../read/read-model.js';
import { ReadWaiter } from '../read/read-waiter.js';
import type { IndexReader, ResourceStore } from '../store/store.js';
import { createWriteService } from '../write/source-write-service.js';
import type { WriteSource } from '../write/source-write-service.js';
import type { WriteService } from '../write/write-service.js';
import { OverlayRuntime } from './overlay-runtime.js';
import type { Sources } from './sources.js';

/** DataPlane is the read model and the write service. */
export interface DataPlane {
  readonly read: ReadModel;
  readonly write: WriteService;
}

/** createOverlay makes the read-your-writes overlay over the cache when the config turns it on. */
export function createOverlay(
  config: Pick<Config, 'cache'>, cache: ResourceStore, onEvict?: (key: OverlayKey, cause: EvictionCause) => void,
): OverlayRuntime | undefined {
  return config.cache.enabled ? new OverlayRuntime({ cache, ttlMs: config.cache.ttlMs, ...(onEvict ? { onEvict } : {}) }) : undefined;
}

/** Replication across replicas: how reads are made consistent, and what writes record into instead of the local overlay. */
export interface ReplicaPlane {
  readonly consistency: Consistency;
  readonly recorder: OverlayRecorder | undefined;
}

/** createDataPlane wires the read model and the write service over the cache, the overlay and the sources. */
export function createDataPlane(
  config: Pick<Config, 'cache' | 'limits'>, cache: ResourceStore & IndexReader, sources: Sources, overlay: OverlayRuntime | undefined, replicas?: ReplicaPlane,
): DataPlane {
  const read = createReadModel({
    cache,
    clusterCachedResources: () => sources.clusterCachedResources(),
    ...(overlay ? { overlay: { overlay: overlay.overlay, scopes: () => overlay.scopes.all() } } : {}),
    waiter: new ReadWaiter({
      timeoutMs: config.limits.minResourceVersionWaitMs,
      progress: { hasReplicated: (wanted) => sources.hasReplicated(wanted) },
    }),
    ...(replicas ? { consistency: replicas.consistency } : {}),
  });
  const gvks = overlayGvks(config.cache.gvks);
  const copies = new CacheCopies(cache);
  const write = createWriteService({
    sources: () => new Map<string, WriteSource>(sources.all().map((r) => [r.name, { client: r.client }])),
    overlay: replicas?.recorder ?? overlay?.overlay,
    isOverlaid: (group, version, kind) => gvks.isOverlaid(group, version, kind),
    resolveKind: async (shard, cluster, gvr) => sources.runtime(shard)?.discovery.resolve(cluster, gvr),
    cacheCopy: async (key, version) => {
      const copy = await copies.copyOf({ ...key, gvr: { group: key.group, version, resource: key.resource } });
      return copy === undefined ? undefined : unwrapCachedObject(copy);
    },
    cacheObjectsIn: async (shard, cluster, gvr, namespace) => (await copies.copiesIn(shard, cluster, gvr, namespace)).map(unwrapCachedObject),
    ...(overlay ? { recentDeletion: (key) => overlay.recentDeletion(key) } : {}),
    ...(overlay ? { scopes: overlay.scopes } : {}),
    locks: new KeyedMutex(),
  });
  return { read, write };
}
