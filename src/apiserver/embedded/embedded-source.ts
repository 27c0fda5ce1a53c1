// The embedded source: the pieces that make an API server mount behave like a kcp shard with
// namespaces, secrets, configmaps, CRDs and ClusterCachedResources in every logical cluster.

import { LOGICAL_CLUSTER_ANNOTATION, LOGICAL_CLUSTER_NAME_PATTERN } from '../../apimachinery/logical-cluster.js';
import { AppError } from '../../errors.js';
import type { ResourceStore } from '../../store/store.js';
import { BUILTIN_RESOURCES, CLUSTER_CACHED_RESOURCES, CONFIGMAPS, CUSTOM_RESOURCE_DEFINITIONS, NAMESPACES, SECRETS } from '../builtin-resources.js';
import { ClusterCatalog } from '../cluster-catalog.js';
import type { ResourceHooks } from '../resource-hooks.js';
import type { Location } from '../request-target.js';
import { composeHooks, hooksKey } from '../resource-hooks.js';
import { ccrHooks } from './ccr-hooks.js';
import { clusterHooks } from './cluster-hooks.js';
import { configMapHooks } from './configmap-hooks.js';
import { crdHooks } from './crd-hooks.js';
import { readCrd, resourcesOfCrd } from './crd-resources.js';
import { namespaceHooks } from './namespace-hooks.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { secretHooks } from './secret-hooks.js';

/** EmbeddedSource is what app.ts needs to mount the embedded source. */
export interface EmbeddedSource {
  readonly catalog: ClusterCatalog;
  readonly hooks: ResourceHooks;
  /** locate reads `:cluster`; `*` means every cluster. */
  locate(params: Readonly<Record<string, string>>): Location;
  /** prepare creates the configured clusters (with their `default` namespace) up front. */
  prepare(clusters: readonly string[]): Promise<void>;
}

/** createEmbeddedSource builds the catalog and hooks of the embedded source over a store. */
export function createEmbeddedSource(store: ResourceStore, now: () => Date = () => new Date()): EmbeddedSource {
  const catalog = new ClusterCatalog(BUILTIN_RESOURCES);
  const clusterSetup = clusterHooks();
  const lifecycle = new NamespaceLifecycle(catalog);
  // Every object that goes may be the last one a Terminating namespace waits for.
  const clusters: typeof clusterSetup = {
    ...clusterSetup,
    afterDelete: async (ctx, obj) => lifecycle.contentDeleted(ctx.store, ctx.cluster, obj),
  };
  const byResource = new Map<string, ResourceHooks>([
    [hooksKey(NAMESPACES.group, NAMESPACES.resource), namespaceHooks(lifecycle)],
    [hooksKey(SECRETS.group, SECRETS.resource), secretHooks()],
    [hooksKey(CONFIGMAPS.group, CONFIGMAPS.resource), configMapHooks()],
    [hooksKey(CLUSTER_CACHED_RESOURCES.group, CLUSTER_CACHED_RESOURCES.resource), ccrHooks()],
    [hooksKey(CUSTOM_RESOURCE_DEFINITIONS.group, CUSTOM_RESOURCE_DEFINITIONS.resource), crdHooks(catalog, now)],
  ]);
  return {
    catalog,
    hooks: composeHooks(clusters, byResource),
    locate(params) {
      const cluster = params['cluster'] ?? '';
      if (cluster === '*') return { cluster: undefined };
      if (!LOGICAL_CLUSTER_NAME_PATTERN.test(cluster)) throw new AppError('BadRequest', `invalid logical cluster name "${cluster}": must match ${LOGICAL_CLUSTER_NAME_PATTERN.source}`);
      return { cluster };
    },
    async prepare(names) {
      await restoreCatalog(store, catalog);
      for (const name of names) await clusters.prepareCluster(name, store);
      await resumeTerminating(store, lifecycle);
    },
  };
}

/**
 * restoreCatalog registers the resources of the CRDs a durable store already holds, so a
 * restarted source serves its custom resources before anyone writes a CRD again.
 */
async function restoreCatalog(store: ResourceStore, catalog: ClusterCatalog): Promise<void> {
  const { items } = await store.list({ group: CUSTOM_RESOURCE_DEFINITIONS.group, resource: CUSTOM_RESOURCE_DEFINITIONS.resource });
  for (const crd of items) {
    const cluster = crd.metadata.annotations?.[LOGICAL_CLUSTER_ANNOTATION];
    if (cluster !== undefined) catalog.register(cluster, crd.metadata.name ?? '', resourcesOfCrd(readCrd(crd)));
  }
}

/** resumeTerminating picks up the namespaces a durable store holds marked for deletion (the process stopped midway). */
async function resumeTerminating(store: ResourceStore, lifecycle: NamespaceLifecycle): Promise<void> {
  const { items } = await store.list({ group: NAMESPACES.group, resource: NAMESPACES.resource });
  for (const ns of items) {
    const cluster = ns.metadata.annotations?.[LOGICAL_CLUSTER_ANNOTATION];
    if (ns.metadata.deletionTimestamp !== undefined && cluster !== undefined) lifecycle.emptyLater(store, cluster, ns.metadata.name ?? '');
  }
}
