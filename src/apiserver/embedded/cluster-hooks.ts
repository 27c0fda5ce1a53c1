// Logical clusters of the embedded source: every stored object carries `kcp.io/cluster`, as in
// kcp, and a cluster gets its `default` namespace before its first write.

import { LOGICAL_CLUSTER_ANNOTATION } from '../../apimachinery/logical-cluster.js';
import { isAppError } from '../../errors.js';
import type { ResourceStore } from '../../store/store.js';
import type { ResourceHooks } from '../resource-hooks.js';

/** clusterHooks stamps the cluster annotation and prepares clusters; `prepared` is per instance. */
export function clusterHooks(): ResourceHooks & { prepareCluster(cluster: string, store: ResourceStore): Promise<void> } {
  const prepared = new Set<string>();
  return {
    async prepareCluster(cluster, store) {
      if (prepared.has(cluster)) return;
      await ensureNamespace(store, cluster, 'default');
      prepared.add(cluster);
    },
    admit(ctx, obj) {
      const annotations = (obj.metadata['annotations'] ?? {}) as Record<string, string>;
      obj.metadata['annotations'] = { ...annotations, [LOGICAL_CLUSTER_ANNOTATION]: ctx.cluster };
    },
  };
}

/** ensureNamespace creates a namespace unless it exists. */
export async function ensureNamespace(store: ResourceStore, cluster: string, name: string): Promise<void> {
  try {
    await store.create(
      { cluster, group: '', resource: 'namespaces' },
      {
        apiVersion: 'v1', kind: 'Namespace',
        metadata: { name, annotations: { [LOGICAL_CLUSTER_ANNOTATION]: cluster }, labels: { 'kubernetes.io/metadata.name': name } },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      },
      { generation: false },
    );
  } catch (err) {
    if (!isAppError(err, 'AlreadyExists')) throw err;
  }
}
