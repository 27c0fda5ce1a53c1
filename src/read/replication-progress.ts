// How far the cache has replicated each logical cluster, in the source's resourceVersions, and
// the one rule that decides it. Conservative where something replicates: it may answer "not yet"
// for a while after the cache has caught up (a quiet resource advances only on the source's
// BOOKMARKs), but it never answers "yes" for a resourceVersion whose changes are not in the cache
// yet. That is why a token names the resource written: the wait then covers only the controllers
// of that resource, which see the write itself, and never a quiet one.

import { groupResourceKey } from '../apimachinery/gvr.js';
import type { GroupResource } from '../apimachinery/gvr.js';
import type { MinResourceVersion } from './min-resource-version.js';

/** ReplicationProgress tells whether the cache holds every change a token asks for. */
export interface ReplicationProgress {
  hasReplicated(wanted: MinResourceVersion): boolean;
}

/** ChildProgress is what one replication controller (one resource of the cluster) has done. */
export interface ChildProgress {
  /** resource is what it replicates (group '' or `core` for the core group). */
  readonly resource: GroupResource;
  /** resourceVersion is the last one its source informer has seen (list, event or BOOKMARK); '' before the first list. */
  readonly resourceVersion: string;
  /** idle: every change that informer delivered has been reconciled (nothing queued, running or waiting for a retry). */
  readonly idle: boolean;
}

/** ClusterProgress is the replication state of one logical cluster of one source. */
export interface ClusterProgress {
  /** ccrsListed: the source's ClusterCachedResources have been listed (before that, none is known). */
  readonly ccrsListed: boolean;
  /** ccrs are the resources named by the cluster's ClusterCachedResources that are not being deleted. */
  readonly ccrs: readonly GroupResource[];
  /** children are its running replication controllers. */
  readonly children: readonly ChildProgress[];
}

const DECIMAL = /^[0-9]{1,40}$/;

/**
 * replicatedAtLeast is the rule. The controllers that count are those of the token's resource
 * (every one of the cluster for a token without a resource). The cluster has replicated the
 * token's resourceVersion when:
 *   1. its ClusterCachedResources have been listed (until then nothing is known);
 *   2. every resource a counted ClusterCachedResource names has its controller running (one
 *      that has not started yet holds the wait back; a second CCR of the same resource, which
 *      replicates nothing, does not);
 *   3. each counted controller has seen a resourceVersion numerically at least as new (a
 *      non-numeric one never counts) and has reconciled everything it was handed.
 * When nothing counts (no ClusterCachedResource names the resource, or none is in the cluster),
 * nothing will ever replicate it, so there is nothing to wait for: it holds at once rather than
 * answering 504 at the bound. (A CCR created moments before the write, and not yet seen by this
 * replica's CCR informer, is the one case this misses: that informer is quiet too, so waiting for
 * it to reach the token would cost a BOOKMARK interval on every such read.)
 */
export function replicatedAtLeast(cluster: ClusterProgress, wanted: Pick<MinResourceVersion, 'resource' | 'resourceVersion'>): boolean {
  if (!cluster.ccrsListed) return false;
  const wantedKey = wanted.resource === undefined ? undefined : groupResourceKey(wanted.resource);
  const counts = (resource: GroupResource): boolean => wantedKey === undefined || groupResourceKey(resource) === wantedKey;
  const running = new Set<string>();
  for (const child of cluster.children) {
    if (!counts(child.resource)) continue;
    if (!child.idle || !DECIMAL.test(child.resourceVersion) || BigInt(child.resourceVersion) < wanted.resourceVersion) return false;
    running.add(groupResourceKey(child.resource));
  }
  return cluster.ccrs.every((resource) => !counts(resource) || running.has(groupResourceKey(resource)));
}
