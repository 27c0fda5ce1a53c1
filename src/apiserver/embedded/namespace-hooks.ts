// Namespaces: created Active, labelled with their name, and deleting one deletes what is in it.

import { AppError } from '../../errors.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import type { ResourceStore } from '../../store/store.js';
import type { ResourceHooks } from '../resource-hooks.js';
import type { ResourceCatalog } from '../resource-info.js';

const PROTECTED = new Set(['default', 'kube-system', 'kube-public']);

/** namespaceHooks needs the catalog to find every namespaced resource of the cluster. */
export function namespaceHooks(catalog: ResourceCatalog): ResourceHooks {
  return {
    admit(_ctx, obj) {
      const name = String(obj.metadata['name'] ?? '');
      const labels = (obj.metadata['labels'] ?? {}) as Record<string, string>;
      obj.metadata['labels'] = { ...labels, 'kubernetes.io/metadata.name': name };
      obj['status'] = { phase: 'Active' };
    },
    beforeDelete(_ctx, obj) {
      const name = obj.metadata.name ?? '';
      if (PROTECTED.has(name)) throw new AppError('Forbidden', `namespace "${name}" is forbidden: this namespace may not be deleted`, { name, kind: 'namespaces' });
    },
    async afterDelete(ctx, obj) {
      await deleteContents(ctx.store, catalog, ctx.cluster, obj);
    },
  };
}

async function deleteContents(store: ResourceStore, catalog: ResourceCatalog, cluster: string, ns: KubeObject): Promise<void> {
  const seen = new Set<string>();
  for (const info of catalog.resources(cluster)) {
    const key = `${info.group}/${info.resource}`;
    if (!info.namespaced || seen.has(key)) continue;
    seen.add(key);
    await store.deleteCollection({ cluster, group: info.group, resource: info.resource, namespace: ns.metadata.name ?? '' });
  }
}
