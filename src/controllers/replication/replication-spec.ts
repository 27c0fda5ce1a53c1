// What one replication controller replicates: one GVR of one logical cluster of one source.

import type { GroupVersionResource } from '../../apimachinery/gvr.js';
import type { LabelSelector } from '../../apimachinery/selector.js';

/** ReplicationSpec fixes a child controller's source side and how its copies are marked. */
export interface ReplicationSpec {
  /** shard is the source's name. */
  readonly shard: string;
  readonly cluster: string;
  readonly gvr: GroupVersionResource;
  readonly identityHash: string;
  /** selector picks the source objects to replicate (the CCR's labelSelector). */
  readonly selector: LabelSelector;
}
