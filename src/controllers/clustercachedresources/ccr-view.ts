// Reading a ClusterCachedResource defensively (it is user input) and the names of its finalizer,
// annotations, phases and conditions (src/controllers/clustercachedresources/README.md).

import type { GroupVersionResource } from '../../apimachinery/gvr.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import { isPlainObject } from '../../apimachinery/object-meta.js';

/** CCR_FINALIZER keeps a CCR until its copies are purged. */
export const CCR_FINALIZER = 'cache.kcp.io/clustercachedresource';
/** RESOURCE_KIND_ANNOTATION records the Kind of the replicated resource. */
export const RESOURCE_KIND_ANNOTATION = 'cache.kcp.io/resource-kind';
/** RESOURCE_SCOPE_ANNOTATION records `Cluster` or `Namespaced`. */
export const RESOURCE_SCOPE_ANNOTATION = 'cache.kcp.io/resource-scope';
/** IDENTITY_NAMESPACE holds generated identity secrets. */
export const IDENTITY_NAMESPACE = 'kcp-system';

/** CcrPhase is status.phase. */
export type CcrPhase = 'Initializing' | 'Ready' | 'Deleting' | 'Deleted';

/** ConditionType is one of the CCR's condition types. */
export type ConditionType = 'ResourceValid' | 'IdentityValid' | 'ReplicationStarted';

/** CcrView is the part of a CCR the controller reads. */
export interface CcrView {
  readonly cluster: string;
  readonly name: string;
  readonly gvr: GroupVersionResource;
  readonly secretRef: { readonly namespace: string; readonly name: string } | undefined;
  readonly labelSelector: unknown;
  readonly deleting: boolean;
  readonly hasFinalizer: boolean;
  readonly finalizers: readonly string[];
  readonly status: Readonly<Record<string, unknown>>;
  readonly creationTimestamp: string;
  readonly annotations: Readonly<Record<string, string>>;
}

/** readCcr reads a CCR stored in logical cluster `cluster`. */
export function readCcr(cluster: string, obj: KubeObject): CcrView {
  const spec = isPlainObject(obj['spec']) ? obj['spec'] : {};
  const identity = isPlainObject(spec['identity']) ? spec['identity'] : {};
  const ref = isPlainObject(identity['secretRef']) ? identity['secretRef'] : undefined;
  return {
    cluster,
    name: obj.metadata.name ?? '',
    gvr: { group: str(spec['group']), version: str(spec['version']), resource: str(spec['resource']) },
    secretRef: ref && str(ref['name']) ? { namespace: str(ref['namespace']) || IDENTITY_NAMESPACE, name: str(ref['name']) } : undefined,
    labelSelector: spec['labelSelector'],
    deleting: obj.metadata.deletionTimestamp !== undefined,
    hasFinalizer: (obj.metadata.finalizers ?? []).includes(CCR_FINALIZER),
    finalizers: obj.metadata.finalizers ?? [],
    status: isPlainObject(obj['status']) ? obj['status'] : {},
    creationTimestamp: obj.metadata.creationTimestamp ?? '',
    annotations: obj.metadata.annotations ?? {},
  };
}

/** ccrKey is the work-queue key of a CCR: `<cluster>|<name>`. */
export function ccrKey(cluster: string, name: string): string {
  return `${cluster}|${name}`;
}

/** splitCcrKey reads a key made by ccrKey. */
export function splitCcrKey(key: string): { cluster: string; name: string } {
  const bar = key.indexOf('|');
  return { cluster: key.slice(0, bar), name: key.slice(bar + 1) };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
