// A store whose system of record is a durable backend: a MemoryStore serves every read from its
// indexes (the watch cache), every write is committed to the backend first and applied from the
// backend's change feed, and start-up loads the store's key space instead of starting empty.

import type { SharedValues } from '../apimachinery/shared-values.js';
import type { Backend } from '../storage/backend.js';
import { BackendCommitter } from './backend-committer.js';
import { MemoryStore } from './memory-store.js';
import type { MemoryStoreOptions } from './memory-store.js';
import { StoreFeed } from './store-feed.js';
import { WatchCache } from './watch-cache.js';
import type { IndexFunc, ObjectKey } from './store.js';

/** DurableStoreOptions name the backend and the store's key space within it. */
export interface DurableStoreOptions extends Omit<MemoryStoreOptions, 'committer' | 'cache'> {
  readonly backend: Backend;
  /** space is the store's own key space in the backend (e.g. 'source', 'cache'). */
  readonly space: string;
  /** indexes are registered before the state is loaded, so loading indexes it once. */
  readonly indexes?: readonly { readonly group: string; readonly resource: string; readonly name: string; readonly fn: IndexFunc }[];
  /** feedWaitMs bounds how long a writer waits for the feed to bring back what it needs (default 10 s). */
  readonly feedWaitMs?: number;
  readonly onSkipped?: (key: string) => void;
  readonly onFeedError?: (err: unknown) => void;
  /** sharedValues: the table the loaded objects share their repeated values through (StoreFeedOptions). */
  readonly sharedValues?: SharedValues;
}

/** FeedPosition is how far a feed has applied its backend's revisions, and a wait for more. */
export interface FeedPosition {
  /** revision: everything of the feed's prefix committed up to it has been applied. */
  revision(): number;
  /** reach resolves once revision is applied, or after timeoutMs (check revision() again). */
  reach(revision: number, timeoutMs: number): Promise<void>;
}

/** DurableStore is a loaded store over a backend and the feed that keeps it current. */
export interface DurableStore {
  readonly store: MemoryStore;
  /** position is the feed's: a consistent read waits on it. */
  readonly position: FeedPosition;
  /** stop ends the feed; the store keeps serving what it holds. */
  stop(): Promise<void>;
}

/** openDurableStore loads the store's key space from the backend and follows its changes. */
export async function openDurableStore(opts: DurableStoreOptions): Promise<DurableStore> {
  const { backend, space, indexes = [], onSkipped, onFeedError, feedWaitMs, sharedValues, ...memory } = opts;
  const cache = new WatchCache(memory);
  const held = (key: ObjectKey) => cache.table.get(key);
  const committer = new BackendCommitter({ backend, space, held, ...(feedWaitMs === undefined ? {} : { feedWaitMs }) });
  const store = new MemoryStore({ ...memory, committer, cache });
  for (const index of indexes) store.addIndex(index.group, index.resource, index.name, index.fn);
  const feed = new StoreFeed({
    backend, space, cache, committer, ...(onSkipped ? { onSkipped } : {}), ...(onFeedError ? { onError: onFeedError } : {}), ...(sharedValues ? { sharedValues } : {}),
  });
  await feed.start();
  const waiters = committer.waiters;
  const position: FeedPosition = { revision: () => waiters.appliedRevision, reach: (revision, timeoutMs) => waiters.revision(revision, timeoutMs) };
  return { store, position, stop: () => feed.stop() };
}
