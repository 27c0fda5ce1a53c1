// While the process loads its state, the remote sources' informers can list already: each
// source's ClusterCachedResources, then the resource each Ready one names. The replication
// controllers, started once the state is loaded, acquire the same shared informers and find them
// listed, or listing, instead of starting the list then: on a restart the state load and the
// source lists overlap, as controller-runtime starts its caches before the controllers need them.
// The leases taken here are handed over one by one as the source's controllers take theirs, or
// dropped as their CCRs change; the rest are released when this replica follows another or the
// sources stop.

import type { GroupVersionResource } from '../apimachinery/gvr.js';
import { schemaOf } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { ccrKey, readCcr } from '../controllers/clustercachedresources/ccr-view.js';
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

/**
 * prefetchInformers starts the informers a source's controllers will need, before they run: for
 * each CCR of the first list that is Ready and not being deleted. A prefetched informer is released
 * when it is handed over, when its CCR changes so that it no longer needs it (deleted, being
 * deleted, another resource, not Ready), or by releaseAll; a CCR added after the first list is
 * its controller's alone.
 */
export function prefetchInformers(informers: SharedInformers, source: SourceConnection, ccrGvr: GroupVersionResource): Prefetched {
  const ccrs = informers.acquire(source, ccrGvr, undefined);
  const leases = new Map<string, InformerLease>();
  /** byCcr: the lease key each prefetching CCR (by ccrKey) holds. */
  const byCcr = new Map<string, string>();
  let released = false;
  const release = (key: string): void => {
    leases.get(key)?.release();
    leases.delete(key);
    // Nothing left to hand over once the first list is in: the CCR informer goes too.
    if (leases.size === 0 && ccrs.reflector.hasSynced()) prefetched.releaseAll();
  };
  const drop = (id: string): void => {
    const held = byCcr.get(id);
    if (held === undefined) return;
    release(held);
    byCcr.delete(id);
  };
  const observe = (ccr: KubeObject, added: boolean): void => {
    if (released) return;
    const view = readCcr(clusterOf(source, ccr), ccr);
    const id = ccrKey(view.cluster, view.name);
    // A CCR that was not replicating (new, invalid, failing) is left to its controller: an
    // informer prefetched for a resource that does not exist would only retry and log.
    const wanted = !view.deleting && view.status['phase'] === 'Ready' ? leaseKey(view.cluster, view.gvr) : undefined;
    const held = byCcr.get(id);
    if (held !== undefined && held !== wanted) drop(id);
    if (wanted === undefined || held === wanted || !added || ccrs.reflector.hasSynced()) return;
    byCcr.set(id, wanted);
    if (!leases.has(wanted)) leases.set(wanted, informers.acquire(source, view.gvr, view.cluster));
  };
  const removeHandler = ccrs.reflector.addHandler({
    add: (ccr) => observe(ccr, true),
    update: (ccr) => observe(ccr, false),
    delete: (ccr) => drop(ccrKey(clusterOf(source, ccr), ccr.metadata.name ?? '')),
  });
  const prefetched: Prefetched = {
    handOver(cluster, gvr) {
      release(leaseKey(cluster, gvr));
    },
    releaseAll() {
      if (released) return;
      released = true;
      removeHandler();
      for (const lease of leases.values()) lease.release();
      leases.clear();
      byCcr.clear();
      ccrs.release();
    },
  };
  return prefetched;
}

function leaseKey(cluster: string, gvr: GroupVersionResource): string {
  return `${cluster}|${schemaOf(gvr)}`;
}
