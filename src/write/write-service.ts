// The contract of the one write service under REST and GraphQL: writes go to the source through
// its dynamic client, and successful non-dry-run writes are recorded in the overlay so the writer
// reads them back at once. The source's errors come back unchanged (a 409 stays a 409).

import type { GroupResource } from '../apimachinery/gvr.js';
import type { KubeObject } from '../apimachinery/object-meta.js';

/** WriteTarget names a resource in one logical cluster; group '' or `core` is the core group. */
export interface WriteTarget {
  /** shard may be left out when exactly one source serves the cluster. */
  readonly shard?: string;
  readonly cluster: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** namespace for namespaced resources; undefined for cluster-scoped ones. */
  readonly namespace?: string;
}

/** NamedTarget is a WriteTarget plus the object's name. */
export interface NamedTarget extends WriteTarget {
  readonly name: string;
}

/** WriteOptions apply to every write; fieldManager and force go to the source as kube's query parameters. */
export interface WriteOptions {
  readonly dryRun?: boolean;
  readonly fieldManager?: string;
  readonly force?: boolean;
}

/** DeleteOptions add Kubernetes delete preconditions. */
export interface DeleteOptions extends WriteOptions {
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
}

/** WriteResult is the source's answer and where it was written. */
export interface WriteResult {
  /** object is what the source returned (for a delete: the object as deleted, when it returned one). */
  readonly object: KubeObject | undefined;
  /** resourceVersion is the source's resourceVersion after the write ('' when unknown). */
  readonly resourceVersion: string;
  readonly shard: string;
  readonly cluster: string;
  /** resource is what was written (group '' for the core group): the write's token names it. */
  readonly resource: GroupResource;
}

/** PatchType is a supported patch format. */
export type PatchType = 'merge' | 'json' | 'apply';

/** WriteService performs facade writes. Failures are AppErrors, the source's unchanged. */
export interface WriteService {
  create(target: WriteTarget, obj: KubeObject, opts?: WriteOptions): Promise<WriteResult>;
  update(target: NamedTarget, obj: KubeObject, opts?: WriteOptions): Promise<WriteResult>;
  patch(target: NamedTarget, patch: unknown, type: PatchType, opts?: WriteOptions): Promise<WriteResult>;
  updateStatus(target: NamedTarget, obj: KubeObject, opts?: WriteOptions): Promise<WriteResult>;
  patchStatus(target: NamedTarget, patch: unknown, type: PatchType, opts?: WriteOptions): Promise<WriteResult>;
  delete(target: NamedTarget, opts?: DeleteOptions): Promise<WriteResult>;
  /** deleteAllOf deletes every object of the target matching labelSelector; it returns what was deleted. */
  deleteAllOf(target: WriteTarget, labelSelector: string | undefined, opts?: WriteOptions): Promise<{ readonly items: readonly KubeObject[]; readonly shard: string; readonly cluster: string }>;
}
