// While the process loads its state, the remote sources' informers can list already: each
// source's ClusterCachedResources, then the resource each Ready one names. The replication
// controllers, started once the state is loaded, acquire the same shared informers and find them
// listed, or listing, instead of starting the list then: on a restart the state load and the
// source lists overlap, as controller-runtime starts its caches before the controllers need them.
// The leases taken here are handed over one by one as the source's controllers take theirs, and
// the rest are released when this replica follows another or the sources stop.

import type { GroupVersionResource } from '../apimachinery/gvr.js';
import { schemaOf } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { readCcr } from '../controllers/clustercachedresources/ccr-view.js';
import type { InformerLease, SharedInformers } from '../kube/shared-informers.js';
import { clusterOf } from '../kube/source-connection.js';
import type { SourceConnection } from '../kube/source-connection.js';

/** Prefetched is one source's prefetch, as its runtime sees it: leases to hand over. */
export interface Prefetched {
  /** handOver releases the prefetch's lease on the informer of (cluster, gvr): its holder now has its own. */
  handOver(cluster: string, gvr: GroupVersionResource): void;
  /** releaseAll releases every lease still held (no-op after). */
  releaseAll(): void;
}

/** prefetchInformers starts the informers a source's controllers will need, before they run. */
export function prefetchInformers(informers: SharedInformers, source: SourceConnection, ccrGvr: GroupVersionResource): Prefetched {
  const ccrs = informers.acquire(source, ccrGvr, undefined);
  const leases = new Map<string, InformerLease>();
  let released = false;
  const prefetch = (ccr: KubeObject): void => {
    if (released) return;
    const view = readCcr(clusterOf(source, ccr), ccr);
    // A CCR that was not replicating (new, invalid, failing) is left to its controller: an
    // informer prefetched for a resource that does not exist would only retry and log.
    if (view.deleting || view.status['phase'] !== 'Ready') return;
    const key = leaseKey(view.cluster, view.gvr);
    if (!leases.has(key)) leases.set(key, informers.acquire(source, view.gvr, view.cluster));
  };
  const removeHandler = ccrs.reflector.addHandler({ add: prefetch, update: prefetch });
  return {
    handOver(cluster, gvr) {
      const key = leaseKey(cluster, gvr);
      leases.get(key)?.release();
      leases.delete(key);
    },
    releaseAll() {
      if (released) return;
      released = true;
      removeHandler();
      for (const lease of leases.values()) lease.release();
      leases.clear();
      ccrs.release();
    },
  };
}

function leaseKey(cluster: string, gvr: GroupVersionResource): string {
  return `${cluster}|${schemaOf(gvr)}`;
}
