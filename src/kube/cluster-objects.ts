// Objects by logical cluster, namespace and name, in nested maps whose keys are the objects' own
// strings: a flat map keyed `<cluster>|<namespace>/<name>` kept one more string per object (about
// 40 bytes at a million objects, for nothing but the lookup). The names keep their insertion
// order: a list is applied, and its copies written, in the source's name order, which keeps a
// local backend's inserts appending (a map in hash order made a 100k sync on the local backend
// about 25% slower, twice the SQLite commit time). They are in an OrderedChunkedMap rather than a
// Map, which kept that order too but rehashed a million names in one call, stalling a sync for
// about 190 ms.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { OrderedChunkedMap } from '../apimachinery/ordered-chunked-map.js';

/** ClusterObjects maps (cluster, namespace, name) to one object; namespace '' is cluster-scoped. */
export class ClusterObjects {
  readonly #clusters = new Map<string, Map<string, OrderedChunkedMap<KubeObject>>>();
  readonly #clusterOf: (obj: KubeObject) => string;
  #size = 0;

  /** clusterOf names the logical cluster an object belongs to; its namespace and name come from its metadata. */
  constructor(clusterOf: (obj: KubeObject) => string) {
    this.#clusterOf = clusterOf;
  }

  get size(): number {
    return this.#size;
  }

  get(cluster: string, namespace: string, name: string): KubeObject | undefined {
    return this.#clusters.get(cluster)?.get(namespace)?.get(name);
  }

  /** find returns the object held under obj's cluster, namespace and name (obj itself or another version). */
  find(obj: KubeObject): KubeObject | undefined {
    return this.get(this.#clusterOf(obj), obj.metadata.namespace ?? '', obj.metadata.name ?? '');
  }

  /** set stores obj and returns the object it replaced, if any. */
  set(obj: KubeObject): KubeObject | undefined {
    const cluster = this.#clusterOf(obj);
    let namespaces = this.#clusters.get(cluster);
    if (namespaces === undefined) {
      namespaces = new Map();
      this.#clusters.set(cluster, namespaces);
    }
    const namespace = obj.metadata.namespace ?? '';
    let names = namespaces.get(namespace);
    if (names === undefined) {
      names = new OrderedChunkedMap();
      namespaces.set(namespace, names);
    }
    const name = obj.metadata.name ?? '';
    const old = names.get(name);
    names.set(name, obj);
    if (old === undefined) this.#size++;
    return old;
  }

  /** delete forgets the object held under obj's cluster, namespace and name; emptied maps go too, so churn cannot leak. */
  delete(obj: KubeObject): boolean {
    const cluster = this.#clusterOf(obj);
    const namespace = obj.metadata.namespace ?? '';
    const namespaces = this.#clusters.get(cluster);
    const names = namespaces?.get(namespace);
    if (namespaces === undefined || names === undefined || !names.delete(obj.metadata.name ?? '')) return false;
    this.#size--;
    if (names.size === 0) namespaces.delete(namespace);
    if (namespaces.size === 0) this.#clusters.delete(cluster);
    return true;
  }

  *values(): IterableIterator<KubeObject> {
    for (const namespaces of this.#clusters.values()) for (const names of namespaces.values()) yield* names.values();
  }
}
