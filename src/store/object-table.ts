// The keyed maps of a store: (group, resource) → cluster → namespace → name → frozen object, plus
// the registered indexes of each cluster. Lists and counts of one cluster or namespace touch only
// that subset. Map keys are the objects' own name/namespace strings, so no key string is duplicated.

import { ChunkedMap } from '../apimachinery/chunked-map.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import type { TableMembers } from './all-but-bucket.js';
import { Gathered } from './gathered.js';
import { IndexBuckets } from './index-buckets.js';
import type { IndexCount, IndexFunc, ObjectKey, ResourceRef, Scope } from './store.js';

/** ClusterTable holds one resource type's objects in one logical cluster, by namespace then name. */
export class ClusterTable implements TableMembers {
  readonly cluster: string;
  readonly resource: ResourceTable;
  /** namespaces: a namespace can hold a million names, so its map is chunked (see chunked-map.ts); lists sort names. */
  readonly namespaces = new Map<string, ChunkedMap<KubeObject>>();
  readonly indexes = new Map<string, IndexBuckets>();
  /** indexList: the values of indexes, for the loops every write runs (a Map's iterator allocates a result per step). */
  indexList: readonly IndexBuckets[] = [];
  count = 0;

  constructor(cluster: string, resource: ResourceTable) {
    this.cluster = cluster;
    this.resource = resource;
    for (const [name, fn] of resource.indexFns) this.setIndex(name, new IndexBuckets(fn, this));
  }

  /** setIndex registers (or replaces) the index called name. */
  setIndex(name: string, index: IndexBuckets): void {
    this.indexes.set(name, index);
    this.indexList = [...this.indexes.values()];
  }

  /** size is the number of objects held (the members an index's complement buckets are taken from). */
  get size(): number {
    return this.count;
  }

  /** forEach visits every object held, namespace by namespace. */
  forEach(visit: (obj: KubeObject) => void): void {
    for (const names of this.namespaces.values()) for (const obj of names.values()) visit(obj);
  }

  /** get returns the object stored under namespace/name. */
  get(namespace: string, name: string): KubeObject | undefined {
    return this.namespaces.get(namespace)?.get(name);
  }
}

/** ResourceTable holds every object of one (group, resource), across logical clusters. */
export class ResourceTable {
  readonly group: string;
  readonly resource: string;
  readonly clusters = new Map<string, ClusterTable>();
  readonly indexFns = new Map<string, IndexFunc>();
  count = 0;

  constructor(group: string, resource: string) {
    this.group = group;
    this.resource = resource;
  }

  /** ensureCluster returns the cluster's table, creating it on first write. */
  ensureCluster(cluster: string): ClusterTable {
    let table = this.clusters.get(cluster);
    if (table === undefined) {
      table = new ClusterTable(cluster, this);
      this.clusters.set(cluster, table);
    }
    return table;
  }
}

/** ObjectTable is the whole keyed storage of one store. */
export class ObjectTable {
  private readonly groups = new Map<string, Map<string, ResourceTable>>();

  /** resource returns the table of a resource type, if anything ever touched it. */
  resource(group: string, resource: string): ResourceTable | undefined {
    return this.groups.get(group)?.get(resource);
  }

  /** ensureResource returns the table of a resource type, creating it. */
  ensureResource(group: string, resource: string): ResourceTable {
    let byResource = this.groups.get(group);
    if (byResource === undefined) {
      byResource = new Map();
      this.groups.set(group, byResource);
    }
    let table = byResource.get(resource);
    if (table === undefined) {
      table = new ResourceTable(group, resource);
      byResource.set(resource, table);
    }
    return table;
  }

  /** cluster returns the table of one resource type in one cluster, if it holds objects. */
  cluster(ref: ResourceRef): ClusterTable | undefined {
    return this.resource(ref.group, ref.resource)?.clusters.get(ref.cluster);
  }

  /** get is the O(1) lookup of one object. */
  get(key: ObjectKey): KubeObject | undefined {
    return this.cluster(key)?.get(key.namespace, key.name);
  }

  /** put stores next in place of prev (undefined for a create) and moves its index entries. */
  put(table: ClusterTable, next: KubeObject, prev: KubeObject | undefined): void {
    // Every index function runs before anything changes: one that throws leaves the table as it was.
    const indexes = table.indexList;
    const indexValues: (readonly string[])[] = new Array<readonly string[]>(indexes.length);
    for (let i = 0; i < indexes.length; i++) indexValues[i] = (indexes[i] as IndexBuckets).fn(next);
    this.namesOf(table, next.metadata.namespace ?? '').set(next.metadata.name ?? '', next);
    if (prev === undefined) {
      table.count++;
      table.resource.count++;
    }
    for (let i = 0; i < indexes.length; i++) (indexes[i] as IndexBuckets).update(prev, next, indexValues[i] ?? []);
  }

  /**
   * putAll stores objects the table does not hold yet (a load from a backend), indexing them one
   * index at a time (see IndexBuckets.gather). An object whose key is taken (by the table or an
   * earlier one of objects) goes through put afterwards. A throwing index function leaves the
   * table as it was, as in put.
   */
  putAll(table: ClusterTable, objects: readonly KubeObject[]): void {
    const fresh: KubeObject[] = [];
    const later: KubeObject[] = [];
    for (const obj of objects) {
      const names = this.namesOf(table, obj.metadata.namespace ?? '');
      const name = obj.metadata.name ?? '';
      if (names.has(name)) {
        later.push(obj);
      } else {
        names.set(name, obj);
        fresh.push(obj);
      }
    }
    let gathered: Gathered[];
    try {
      gathered = [...table.indexes.values()].map((index) => index.gather(fresh));
    } catch (err) {
      for (const obj of fresh) this.unlink(table, obj);
      throw err;
    }
    table.count += fresh.length;
    table.resource.count += fresh.length;
    let i = 0;
    for (const index of table.indexes.values()) index.addGathered(gathered[i++] ?? new Gathered(), fresh);
    for (const obj of later) this.put(table, obj, table.get(obj.metadata.namespace ?? '', obj.metadata.name ?? ''));
  }

  private namesOf(table: ClusterTable, namespace: string): ChunkedMap<KubeObject> {
    let names = table.namespaces.get(namespace);
    if (names === undefined) {
      names = new ChunkedMap();
      table.namespaces.set(namespace, names);
    }
    return names;
  }

  /** unlink takes obj's name out of its namespace map (and an emptied map with it); false when it was not there. */
  private unlink(table: ClusterTable, obj: KubeObject): boolean {
    const namespace = obj.metadata.namespace ?? '';
    const names = table.namespaces.get(namespace);
    if (names === undefined || !names.delete(obj.metadata.name ?? '')) return false;
    if (names.size === 0) table.namespaces.delete(namespace);
    return true;
  }

  /** remove drops a stored object; empty namespace and cluster maps go too, so churn cannot leak. */
  remove(table: ClusterTable, prev: KubeObject): void {
    if (!this.unlink(table, prev)) return;
    table.count--;
    table.resource.count--;
    for (const index of table.indexList) index.update(prev, undefined, []);
    if (table.count === 0) table.resource.clusters.delete(table.cluster);
  }

  /** addIndex registers fn under name for a resource type and indexes its existing objects at once. */
  addIndex(group: string, resource: string, name: string, fn: IndexFunc): void {
    const table = this.ensureResource(group, resource);
    table.indexFns.set(name, fn);
    for (const cluster of table.clusters.values()) {
      const index = new IndexBuckets(fn, cluster);
      const objects: KubeObject[] = [];
      cluster.forEach((obj) => objects.push(obj));
      index.addGathered(index.gather(objects), objects);
      cluster.setIndex(name, index);
    }
  }

  /** indexCounts lists the objects per (cluster, index value); unknown index → undefined. */
  indexCounts(group: string, resource: string, indexName: string): IndexCount[] | undefined {
    const table = this.resource(group, resource);
    if (table === undefined) return [];
    if (!table.indexFns.has(indexName)) return undefined;
    const out: IndexCount[] = [];
    for (const cluster of table.clusters.values()) {
      for (const [value, count] of cluster.indexes.get(indexName)?.counts() ?? []) out.push({ cluster: cluster.cluster, value, count });
    }
    return out;
  }

  /** total is the number of stored objects. */
  total(): number {
    let sum = 0;
    for (const byResource of this.groups.values()) for (const table of byResource.values()) sum += table.count;
    return sum;
  }

  /** keys lists the key of every stored object. */
  keys(): ObjectKey[] {
    const out: ObjectKey[] = [];
    for (const [group, byResource] of this.groups) {
      for (const [resource, table] of byResource) {
        for (const [cluster, clusterTable] of table.clusters) {
          for (const [namespace, names] of clusterTable.namespaces) {
            for (const name of names.keys()) out.push({ cluster, group, resource, namespace, name });
          }
        }
      }
    }
    return out;
  }

  /** count is the number of objects in a scope, from the maintained counters and map sizes. */
  count(scope: Scope): number {
    const table = this.resource(scope.group, scope.resource);
    if (table === undefined) return 0;
    const clusters = scope.cluster === undefined ? [...table.clusters.values()] : [table.clusters.get(scope.cluster)];
    if (scope.namespace === undefined) {
      return scope.cluster === undefined ? table.count : (clusters[0]?.count ?? 0);
    }
    let total = 0;
    for (const cluster of clusters) total += cluster?.namespaces.get(scope.namespace)?.size ?? 0;
    return total;
  }
}
