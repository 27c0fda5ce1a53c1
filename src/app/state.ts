// The app's state: the embedded source's store and the cache store, in memory or over the
// configured durable backend (one backend, a key space each). A durable store is loaded before
// the app serves, so a restarted cachegate answers with what it held at once.

import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { cachedObjectIndexes } from '../cachedobjects/cached-object-indexes.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../cachedobjects/cached-object-resource.js';
import type { ObservedThreadHeap } from '../metrics/storage-thread-gauges.js';
import type { Backend, BackendHealth } from '../storage/backend.js';
import type { EtcdBackend } from '../storage/etcd/etcd-backend.js';
import type { BatchStats } from '../storage/local/group-commit.js';
import { openLocalBackend } from '../storage/local/local-backend.js';
import { openDurableStore } from '../store/durable-store.js';
import { spacePrefix } from '../store/storage-key.js';
import type { DurableStore, FeedPosition } from '../store/durable-store.js';
import { MemoryStore } from '../store/memory-store.js';
import { isAppError } from '../errors.js';
import { StorageOpenError } from '../storage/storage-open-error.js';
import { createCacheStore } from './cache-store.js';
import type { SharedValues } from '../apimachinery/shared-values.js';

/** SOURCE_SPACE and CACHE_SPACE are the stores' key spaces in a shared backend. */
const SOURCE_SPACE = 'source';
const CACHE_SPACE = 'cache';

/** AppState is the two stores and what keeps them. */
export interface AppState {
  readonly source: MemoryStore;
  readonly cache: MemoryStore;
  /** backend is the durable backend's kind and health (and its client thread's heap, with etcd); undefined for `memory`. */
  readonly backend?: { readonly kind: string; health(): BackendHealth; threadHeap: ObservedThreadHeap };
  /**
   * replicas: with etcd, the backend replicas elect their leader on, the key prefix of the cache
   * (which only the leader writes), and how far this replica's cache and embedded source have
   * applied etcd's revisions.
   */
  readonly replicas?: {
    readonly backend: EtcdBackend;
    readonly cachePrefix: string;
    readonly cachePosition: FeedPosition;
    readonly sourcePosition: FeedPosition;
  };
  /** close stops the feeds and closes the backend (after the app stopped serving). */
  close(): Promise<void>;
}

/**
 * StateHooks hear what the backend does and share with the rest of the app: onLocalCommit hears
 * each commit of the local backend; sharedValues is the table the loaded objects share their
 * repeated values through, the sources' own (see StoreFeedOptions).
 */
export interface StateHooks {
  readonly onLocalCommit?: (stats: BatchStats) => void;
  readonly sharedValues?: SharedValues;
}

/** openState builds the stores for config.store, loading a durable backend's state. */
export async function openState(config: Config, log: Logger, hooks: StateHooks = {}): Promise<AppState> {
  const { eventWindow, eventWindowBytes } = config.store;
  if (config.store.backend === 'memory') {
    return { source: new MemoryStore({ eventWindow, eventWindowBytes }), cache: createCacheStore(eventWindow, eventWindowBytes), close: async () => undefined };
  }
  const { backend, etcd } = await openBackend(config, hooks);
  const feeds: DurableStore[] = [];
  try {
    const onSkipped = (key: string) => log.warn({ key }, 'a stored value is not an object and was skipped');
    const onFeedError = (err: unknown) => log.error({ err }, 'the backend feed could not list again');
    const common = { backend, eventWindow, eventWindowBytes, onSkipped, onFeedError, ...(hooks.sharedValues ? { sharedValues: hooks.sharedValues } : {}) };
    feeds.push(await openDurableStore({ ...common, space: SOURCE_SPACE }));
    const indexes = cachedObjectIndexes().map((index) => ({ group: CACHED_OBJECTS_GROUP, resource: CACHED_OBJECTS_RESOURCE, name: index.name, fn: index.fn }));
    feeds.push(await openDurableStore({ ...common, space: CACHE_SPACE, indexes }));
  } catch (err) {
    await Promise.all(feeds.map((feed) => feed.stop()));
    await backend.close();
    throw loadError(err, backend.kind);
  }
  const [source, cache] = feeds as [DurableStore, DurableStore];
  log.info({ backend: backend.kind, sourceObjects: source.store.size(), cachedObjects: cache.store.size() }, 'state loaded');
  return {
    source: source.store,
    cache: cache.store,
    backend: { kind: backend.kind, health: () => backend.health(), threadHeap: () => threadHeapOf(backend) },
    ...(etcd === undefined ? {} : { replicas: { backend: etcd, cachePrefix: spacePrefix(CACHE_SPACE), cachePosition: cache.position, sourcePosition: source.position } }),
    async close() {
      await Promise.all(feeds.map((feed) => feed.stop()));
      await backend.close();
    },
  };
}

/**
 * loadError: a backend that answers an error while the state loads (etcd unreachable, a disk that
 * fails a read) ends start-up like one that cannot be opened, with one line and exit code 2, not
 * with a stack trace; serving an empty cache instead would hide the state the operator expects.
 */
function loadError(err: unknown, kind: string): unknown {
  if (!isAppError(err)) return err;
  const message = err.message.startsWith(`${kind}: `) ? err.message : `${kind}: ${err.message}`;
  return new StorageOpenError(`${message} (while loading the stored state)`, { cause: err });
}

async function openBackend(config: Config, hooks: StateHooks): Promise<{ readonly backend: Backend; readonly etcd?: EtcdBackend }> {
  const { store } = config;
  if (store.backend === 'local') return { backend: await openLocalBackend({ dataDir: store.dataDir, fsync: store.fsync, onBatch: hooks.onLocalCommit }) };
  // etcd's client brings gRPC along: loaded only by the processes configured for it.
  const { openEtcdBackend } = await import('../storage/etcd/etcd-backend.js');
  const { etcd } = store;
  const backend = await openEtcdBackend({
    endpoints: [...etcd.endpoints],
    prefix: etcd.prefix,
    ...(etcd.tls === undefined ? {} : { tls: { ...etcd.tls } }),
    dialTimeoutMs: etcd.dialTimeoutSeconds * 1000,
    compactIntervalMs: etcd.compactIntervalMinutes * 60_000,
    clientThread: true,
  });
  return { backend, etcd: backend };
}

/** threadHeapOf is the heap of the backend's client thread, with the backend's kind (undefined without a thread). */
async function threadHeapOf(backend: Backend): ReturnType<ObservedThreadHeap> {
  const heap = await backend.threadHeap?.();
  return heap === undefined ? undefined : { backend: backend.kind, ...heap };
}
