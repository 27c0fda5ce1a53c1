// What every verb handler of one mounted API server shares.

import type { ResourceStore, Scope } from '../store/store.js';
import type { ResourceHooks } from './resource-hooks.js';
import type { ResourceCatalog } from './resource-info.js';
import type { RequestTarget } from './request-target.js';
import type { ActiveWatches, EventEncoder, WatchLimits } from './watch-stream.js';

/** ApiContext is the state one mounted API server gives its handlers. */
export interface ApiContext {
  readonly store: ResourceStore;
  readonly catalog: ResourceCatalog;
  readonly hooks: ResourceHooks;
  readonly encoder: EventEncoder;
  readonly watches: ActiveWatches;
  readonly watchLimits: WatchLimits;
  /** requireNamespaces: namespaced objects may only be created in an existing namespace. */
  readonly requireNamespaces: boolean;
  /**
   * consistentRead makes a get or list that names no resourceVersion consistent, as kube-apiserver
   * serves it, and every update, patch and delete: on replicas sharing a backend it waits until this
   * replica's store holds everything committed before the request (undefined: nothing to wait
   * for). Any resourceVersion opts a read out.
   */
  readonly consistentRead?: () => Promise<void> | undefined;
}

/** scopeOf gives the store scope a collection request addresses. */
export function scopeOf(target: RequestTarget): Scope {
  return {
    cluster: target.cluster,
    group: target.info.group,
    resource: target.info.resource,
    namespace: target.namespace,
    where: target.where,
  };
}
