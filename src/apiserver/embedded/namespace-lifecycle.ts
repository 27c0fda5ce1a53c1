// Deleting a namespace as kube-apiserver and its namespace controller do: the DELETE marks the
// namespace Terminating (held by the `kubernetes` finalizer), and a moment later its contents are
// deleted; objects held by their own finalizers stay, marked, and keep the namespace Terminating
// until they are gone; then the namespace goes. The moment's delay is the controller's: a client
// deleting a namespace and the objects in it one after the other (`kubectl delete -f`) finds its
// objects still there, as it would on a cluster. Creates in a Terminating namespace are refused
// (write-verbs.ts). One instance per embedded source; its timers never keep the process alive.

import { isAppError } from '../../errors.js';
import type { KubeObject } from '../../apimachinery/object-meta.js';
import type { ObjectKey, ResourceStore } from '../../store/store.js';
import type { ResourceCatalog } from '../resource-info.js';

/** NAMESPACE_FINALIZER holds a deleted namespace until its contents are gone. */
export const NAMESPACE_FINALIZER = 'kubernetes';

/** CONTENT_DELETION_DELAY_MS is how long after the DELETE the contents are deleted. */
const CONTENT_DELETION_DELAY_MS = 1_000;

/** NamespaceLifecycle marks, empties and finally removes deleted namespaces. */
export class NamespaceLifecycle {
  readonly #catalog: ResourceCatalog;
  readonly #delayMs: number;
  readonly #scheduled = new Map<string, NodeJS.Timeout>();

  constructor(catalog: ResourceCatalog, delayMs = CONTENT_DELETION_DELAY_MS) {
    this.#catalog = catalog;
    this.#delayMs = delayMs;
  }

  /** terminate marks a namespace about to be deleted: phase Terminating, held by the finalizer. */
  async terminate(store: ResourceStore, cluster: string, ns: KubeObject): Promise<void> {
    if (ns.metadata.deletionTimestamp !== undefined) return;
    const finalizers = ns.metadata.finalizers ?? [];
    const held = finalizers.includes(NAMESPACE_FINALIZER) ? finalizers : [...finalizers, NAMESPACE_FINALIZER];
    // One write for both (status included): the DELETE that follows marks what this stored.
    await store.update(namespaceKey(cluster, ns.metadata.name ?? ''), { ...ns, metadata: { ...ns.metadata, finalizers: held }, status: { phase: 'Terminating' } });
  }

  /** emptyLater deletes a marked namespace's contents after the controller's delay, then finalizes it. */
  emptyLater(store: ResourceStore, cluster: string, name: string): void {
    const id = `${cluster}/${name}`;
    if (this.#scheduled.has(id)) return;
    const timer = setTimeout(() => {
      this.#scheduled.delete(id);
      // A store closed meanwhile (the app stopping) ends the work; a restart finds the namespace marked.
      this.#empty(store, cluster, name).catch(() => undefined);
    }, this.#delayMs);
    timer.unref();
    this.#scheduled.set(id, timer);
  }

  /** contentDeleted finalizes the namespace of an object that just went, if it is Terminating and now empty. */
  async contentDeleted(store: ResourceStore, cluster: string, obj: KubeObject): Promise<void> {
    const namespace = obj.metadata.namespace;
    if (namespace !== undefined && namespace !== '') await this.#finalizeIfEmpty(store, cluster, namespace);
  }

  async #empty(store: ResourceStore, cluster: string, name: string): Promise<void> {
    for (const resource of this.#namespacedResources(cluster)) await store.deleteCollection({ cluster, ...resource, namespace: name });
    await this.#finalizeIfEmpty(store, cluster, name);
  }

  async #finalizeIfEmpty(store: ResourceStore, cluster: string, name: string): Promise<void> {
    const key = namespaceKey(cluster, name);
    const ns = await store.get(key).catch((err: unknown) => (isAppError(err, 'NotFound') ? undefined : Promise.reject(err)));
    if (ns === undefined || ns.metadata.deletionTimestamp === undefined) return;
    for (const resource of this.#namespacedResources(cluster)) {
      if ((await store.list({ cluster, ...resource, namespace: name }, { limit: 1 })).items.length > 0) return;
    }
    const finalizers = (ns.metadata.finalizers ?? []).filter((finalizer) => finalizer !== NAMESPACE_FINALIZER);
    await store.update(key, { ...ns, metadata: { ...ns.metadata, finalizers } }, { statusSubresource: true });
  }

  #namespacedResources(cluster: string): Array<{ group: string; resource: string }> {
    const seen = new Map<string, { group: string; resource: string }>();
    for (const info of this.#catalog.resources(cluster)) {
      if (info.namespaced) seen.set(`${info.group}/${info.resource}`, { group: info.group, resource: info.resource });
    }
    return [...seen.values()];
  }
}

function namespaceKey(cluster: string, name: string): ObjectKey {
  return { cluster, group: '', resource: 'namespaces', namespace: '', name };
}
