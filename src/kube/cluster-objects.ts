// Objects by logical cluster, namespace and name, in nested maps whose keys are the objects' own
// strings: a flat map keyed `<cluster>|<namespace>/<name>` kept one more string per object (about
// 40 bytes at a million objects, for nothing but the lookup).

import type { KubeObject } from '../apimachinery/object-meta.js';

/** ClusterObjects maps (cluster, namespace, name) to one object; namespace '' is cluster-scoped. */
export class ClusterObjects {
  readonly #clusters = new Map<string, Map<string, Map<string, KubeObject>>>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(cluster: string, namespace: string, name: string): KubeObject | undefined {
    return this.#clusters.get(cluster)?.get(namespace)?.get(name);
  }

  has(cluster: string, namespace: string, name: string): boolean {
    return this.#clusters.get(cluster)?.get(namespace)?.has(name) === true;
  }

  /** set stores obj and returns the object it replaced, if any. */
  set(cluster: string, namespace: string, name: string, obj: KubeObject): KubeObject | undefined {
    let namespaces = this.#clusters.get(cluster);
    if (namespaces === undefined) {
      namespaces = new Map();
      this.#clusters.set(cluster, namespaces);
    }
    let names = namespaces.get(namespace);
    if (names === undefined) {
      names = new Map();
      namespaces.set(namespace, names);
    }
    const old = names.get(name);
    names.set(name, obj);
    if (old === undefined) this.#size++;
    return old;
  }

  /** delete forgets one object; emptied maps go too, so churn cannot leak. */
  delete(cluster: string, namespace: string, name: string): boolean {
    const namespaces = this.#clusters.get(cluster);
    const names = namespaces?.get(namespace);
    if (namespaces === undefined || names === undefined || !names.delete(name)) return false;
    this.#size--;
    if (names.size === 0) namespaces.delete(namespace);
    if (namespaces.size === 0) this.#clusters.delete(cluster);
    return true;
  }

  *values(): IterableIterator<KubeObject> {
    for (const namespaces of this.#clusters.values()) for (const names of namespaces.values()) yield* names.values();
  }
}
