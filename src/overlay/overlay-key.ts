// Where an overlay entry lives. One Overlay serves every shard and logical cluster, so the key
// carries both; the string form is only an in-memory map key and never leaves the process.

import type { KubeObject } from '../apimachinery/object-meta.js';

/** OverlayScope names one resource of one logical cluster; namespace narrows it when non-empty. */
export interface OverlayScope {
  readonly shard: string;
  readonly cluster: string;
  /** group is '' for the core group; 'core' is accepted as the same group. */
  readonly group: string;
  readonly resource: string;
  /** namespace limits the scope when non-empty; undefined or '' means every namespace. */
  readonly namespace?: string;
}

/** OverlayKey names one object: its resource scope plus namespace ('' if cluster-scoped) and name. */
export interface OverlayKey {
  readonly shard: string;
  readonly cluster: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
}

/**
 * overlayKeyString renders a key as a stable string. Parts are URI-encoded so no separator can
 * be forged by a part; the core group is written '' whether it came as '' or 'core', so the REST
 * facade (which spells it `core`) and internal callers (which use '') land on the same entry.
 */
export function overlayKeyString(key: OverlayKey): string {
  return `${overlayScopeString(key)}/${objectPart(key.namespace, key.name)}`;
}

/** overlayScopeString renders the resource part of a scope (the namespace is not part of it). */
export function overlayScopeString(scope: OverlayScope): string {
  const group = scope.group === 'core' ? '' : scope.group;
  return [scope.shard, scope.cluster, group, scope.resource].map(encodeURIComponent).join('/');
}

/** objectPart renders namespace and name, the key of an object within its scope. */
export function objectPart(namespace: string, name: string): string {
  return `${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
}

/** keyOfObject builds the key of an object found in a scope, from its own namespace and name. */
export function keyOfObject(scope: OverlayScope, object: KubeObject): OverlayKey {
  return {
    shard: scope.shard,
    cluster: scope.cluster,
    group: scope.group,
    resource: scope.resource,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name ?? '',
  };
}

/** inNamespace tells whether a namespace is inside a scope (an empty scope namespace takes all). */
export function inNamespace(scope: OverlayScope, namespace: string): boolean {
  return scope.namespace === undefined || scope.namespace === '' || scope.namespace === namespace;
}
