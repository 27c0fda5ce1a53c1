// What the ClusterCachedResources controller reaches the world through. app.ts builds these from
// the source's dynamic client, its discovery and the cache; tests pass their own closures.

import type { GroupVersionResource } from '../../apimachinery/gvr.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import type { ReplicationCounts } from '../replication/replication-controller.js';
import type { ReplicationSpec } from '../replication/replication-spec.js';
import type { LabelSelector } from '../../apimachinery/selector.js';
import type { CcrEvent } from './ccr-events.js';

/** CcrClient writes CCRs, their identity secrets and namespaces in the source. */
export interface CcrClient {
  /** patchCcr applies a JSON merge patch to a CCR's metadata/spec. */
  patchCcr(cluster: string, name: string, patch: Record<string, unknown>): Promise<void>;
  /** patchCcrStatus replaces a CCR's status through its /status subresource. */
  patchCcrStatus(cluster: string, name: string, status: Record<string, unknown>): Promise<void>;
  getSecret(cluster: string, namespace: string, name: string): Promise<KubeObject | undefined>;
  createSecret(cluster: string, secret: KubeObject): Promise<void>;
  ensureNamespace(cluster: string, name: string): Promise<void>;
  /** recordEvent records an Event about a CCR (core/v1, in the `default` namespace, as for any cluster-scoped object). */
  recordEvent(cluster: string, ccr: { readonly name: string; readonly uid: string }, event: CcrEvent): Promise<void>;
}

/** ResolvedResource is what REST mapping tells about a GVR in one logical cluster. */
export interface ResolvedResource {
  readonly kind: string;
  readonly namespaced: boolean;
}

/** ResolveResource maps a GVR in a logical cluster; undefined when the cluster does not serve it. */
export type ResolveResource = (cluster: string, gvr: GroupVersionResource) => Promise<ResolvedResource | undefined>;

/** Child is a running replication controller as the parent sees it. */
export interface Child {
  stop(): Promise<void>;
  updateSelector(selector: LabelSelector): void;
  counts(): ReplicationCounts;
  hasSynced(): boolean;
}

/** StartChild starts a replication controller for a spec. */
export type StartChild = (spec: ReplicationSpec, onCountsChanged: () => void) => Promise<Child>;

/** CopyPurger deletes every copy of one (shard, cluster, GVR) from the cache and counts what is left. */
export interface CopyPurger {
  purge(shard: string, cluster: string, gvr: GroupVersionResource): Promise<void>;
  count(shard: string, cluster: string, gvr: GroupVersionResource): Promise<number>;
}
