// Where a store's objects live in a backend's key space, laid out like kube-apiserver's registry:
// /<space>/<group>/<resource>/<cluster>/<namespace>/<name>, with `core` for the core group and an
// empty segment for the namespace of a cluster-scoped object. Each store has its own space
// (`source` for the embedded source, `cache` for the CachedObjects), so one backend holds both.
// Names, namespaces, groups and resources never contain '/'; a cluster name might, so the cluster
// is whatever lies between the resource and the last two segments.

import type { ObjectKey } from './store.js';

const CORE_GROUP = 'core';

/** spacePrefix is the prefix of every key of one store's space, ending in '/'. */
export function spacePrefix(space: string): string {
  return `/${space}/`;
}

/** storageKey is the backend key of one object. */
export function storageKey(space: string, key: ObjectKey): string {
  const group = key.group === '' ? CORE_GROUP : key.group;
  return `/${space}/${group}/${key.resource}/${key.cluster}/${key.namespace}/${key.name}`;
}

/** parseStorageKey reads an object key back, or undefined for a key that is not one of the space's. */
export function parseStorageKey(space: string, key: string): ObjectKey | undefined {
  const prefix = spacePrefix(space);
  if (!key.startsWith(prefix)) return undefined;
  const parts = key.slice(prefix.length).split('/');
  if (parts.length < 5) return undefined;
  const [group, resource] = parts as [string, string];
  const name = parts[parts.length - 1] as string;
  const namespace = parts[parts.length - 2] as string;
  const cluster = parts.slice(2, -2).join('/');
  if (group === '' || resource === '' || name === '') return undefined;
  return { group: group === CORE_GROUP ? '' : group, resource, cluster, namespace, name };
}
