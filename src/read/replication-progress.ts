// How far the cache has replicated each logical cluster, in the source's resourceVersions, and
// the one rule that decides it. Conservative: it may answer "not yet" for a while after the
// cache has caught up (a quiet resource advances only on the source's BOOKMARKs), but it never
// answers "yes" for a resourceVersion whose changes are not in the cache yet.

/** ReplicationProgress tells whether the cache holds every change of a logical cluster up to a source resourceVersion. */
export interface ReplicationProgress {
  hasReplicated(shard: string, cluster: string, resourceVersion: bigint): boolean;
}

/** ChildProgress is what one replication controller (one GVR of the cluster) has done. */
export interface ChildProgress {
  /** resourceVersion is the last one its source informer has seen (list, event or BOOKMARK); '' before the first list. */
  readonly resourceVersion: string;
  /** idle: every change that informer delivered has been reconciled (nothing queued, running or waiting for a retry). */
  readonly idle: boolean;
}

/** ClusterProgress is the replication state of one logical cluster of one source. */
export interface ClusterProgress {
  /** ccrs counts the ClusterCachedResources of the cluster that are not being deleted. */
  readonly ccrs: number;
  /** children are its running replication controllers. */
  readonly children: readonly ChildProgress[];
}

const DECIMAL = /^[0-9]{1,40}$/;

/**
 * replicatedAtLeast is the rule: a logical cluster has replicated `resourceVersion` when it has at
 * least one replication controller, at least as many as it has ClusterCachedResources (a CCR
 * whose controller has not started yet holds the wait back), and each of them has seen a
 * resourceVersion numerically at least as new and has reconciled everything it was handed. A
 * non-numeric resourceVersion never counts as progress.
 */
export function replicatedAtLeast(cluster: ClusterProgress, resourceVersion: bigint): boolean {
  const { children } = cluster;
  if (children.length === 0 || children.length < cluster.ccrs) return false;
  return children.every((child) => child.idle && DECIMAL.test(child.resourceVersion) && BigInt(child.resourceVersion) >= resourceVersion);
}
