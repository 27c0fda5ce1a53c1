// Collecting the objects of a list in their output order: (cluster,) namespace, then name. Only the
// maps of the requested cluster and namespace are visited, and an index query visits only its
// bucket, so a list never costs more than its candidates plus their sort.

import { AppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import type { ClusterTable, ResourceTable } from './object-table.js';
import type { ListOptions, Scope } from './store.js';
import { compareStrings } from '../apimachinery/compare-strings.js';

/** ListFilters are the filtering parts of ListOptions (paging is handled elsewhere). */
export type ListFilters = Pick<ListOptions, 'labelSelector' | 'fieldSelector' | 'index'>;

type Predicate = (obj: KubeObject) => boolean;

/**
 * collectObjects returns the objects of a scope that pass the filters, in list order. Objects do not
 * carry their cluster, so a caller that needs it passes clustersOut to get one cluster per item.
 */
export function collectObjects(table: ResourceTable | undefined, scope: Scope, filters: ListFilters, clustersOut?: string[]): readonly KubeObject[] {
  const index = filters.index;
  if (index !== undefined) assertIndex(table, index.name);
  if (table === undefined) return [];
  const keep = predicateOf(scope, filters);
  const parts: Array<readonly KubeObject[]> = [];
  for (const cluster of clustersOf(table, scope)) {
    const part = index === undefined ? byNamespace(cluster, scope.namespace, keep) : byIndex(cluster, index.name, index.value, keep);
    if (part.length === 0) continue;
    parts.push(part);
    if (clustersOut !== undefined) for (let i = 0; i < part.length; i++) clustersOut.push(cluster.cluster);
  }
  // One cluster's answer is returned as it is: for an unfiltered index value that is the bucket's
  // cached sorted array, so a list of a large unchanged bucket copies nothing.
  return parts.length === 1 ? (parts[0] ?? []) : parts.flat();
}

/**
 * collectUnsorted is collectObjects for the lists whose order costs a sort of every match: no index,
 * one cluster. It returns the matches in no particular order, in a fresh array, visiting the maps'
 * entries without looking each name up again; undefined for any other list (collectObjects then).
 */
export function collectUnsorted(table: ResourceTable | undefined, scope: Scope, filters: ListFilters): KubeObject[] | undefined {
  if (filters.index !== undefined || table === undefined) return undefined;
  if (scope.cluster === undefined && table.clusters.size > 1) return undefined;
  const cluster = scope.cluster === undefined ? table.clusters.values().next().value : table.clusters.get(scope.cluster);
  const keep = predicateOf(scope, filters);
  const out: KubeObject[] = [];
  if (cluster === undefined) return out;
  const maps = scope.namespace === undefined ? cluster.namespaces.values() : [cluster.namespaces.get(scope.namespace)];
  for (const names of maps) {
    if (names === undefined) continue;
    for (const obj of names.values()) if (keep === undefined || keep(obj)) out.push(obj);
  }
  return out;
}

/** indexedObjects is one index value's objects in one cluster or all, unordered: a point read's candidates. */
export function indexedObjects(table: ResourceTable | undefined, cluster: string | undefined, index: string, value: string): KubeObject[] {
  assertIndex(table, index);
  if (table === undefined) return [];
  if (cluster !== undefined) return table.clusters.get(cluster)?.indexes.get(index)?.objects(value) ?? [];
  // One location (the usual cache): its bucket's array is already a fresh one to hand out.
  if (table.clusters.size === 1) return table.clusters.values().next().value?.indexes.get(index)?.objects(value) ?? [];
  const out: KubeObject[] = [];
  for (const clusterTable of table.clusters.values()) {
    const found = clusterTable.indexes.get(index)?.objects(value);
    if (found !== undefined) for (const obj of found) out.push(obj);
  }
  return out;
}

/** indexedCount is the number of objects indexedObjects gives, counted without an array. */
export function indexedCount(table: ResourceTable | undefined, cluster: string | undefined, index: string, value: string): number {
  assertIndex(table, index);
  if (table === undefined) return 0;
  if (cluster !== undefined) return table.clusters.get(cluster)?.indexes.get(index)?.count(value) ?? 0;
  let count = 0;
  for (const clusterTable of table.clusters.values()) count += clusterTable.indexes.get(index)?.count(value) ?? 0;
  return count;
}

function assertIndex(table: ResourceTable | undefined, index: string): void {
  if (table?.indexFns.has(index) !== true) throw new AppError('BadRequest', `index "${index}" is not registered`);
}

/** listFingerprint identifies a list's options so a continue token is only used with the same list. */
export function listFingerprint(scope: Scope, filters: ListFilters): string {
  return JSON.stringify([
    scope.cluster ?? null,
    scope.group,
    scope.resource,
    scope.namespace ?? null,
    scope.where?.key ?? null,
    filters.labelSelector?.toString() ?? '',
    filters.fieldSelector?.toString() ?? '',
    filters.index ? [filters.index.name, filters.index.value] : null,
  ]);
}

/** clustersIn is the cluster tables a scope covers, in no particular order: for counting. */
export function clustersIn(table: ResourceTable, scope: Scope): ClusterTable[] {
  if (scope.cluster === undefined) return [...table.clusters.values()];
  const cluster = table.clusters.get(scope.cluster);
  return cluster === undefined ? [] : [cluster];
}

/** clustersOf is clustersIn in cluster name order, the order a list answers in. */
export function clustersOf(table: ResourceTable, scope: Scope): ClusterTable[] {
  const clusters = clustersIn(table, scope);
  return clusters.length > 1 ? clusters.sort((a, b) => compareStrings(a.cluster, b.cluster)) : clusters;
}

function byNamespace(cluster: ClusterTable, namespace: string | undefined, keep: Predicate | undefined): KubeObject[] {
  const out: KubeObject[] = [];
  const namespaces = namespace === undefined ? sortedKeys(cluster.namespaces) : [namespace];
  for (const ns of namespaces) {
    const names = cluster.namespaces.get(ns);
    if (names === undefined) continue;
    // Sorting the bare name strings is much faster than sorting objects with a comparator.
    for (const name of sortedKeys(names)) {
      const obj = names.get(name) as KubeObject;
      if (keep === undefined || keep(obj)) out.push(obj);
    }
  }
  return out;
}

function byIndex(cluster: ClusterTable, name: string, value: string | readonly string[], keep: Predicate | undefined): readonly KubeObject[] {
  const index = cluster.indexes.get(name);
  if (index === undefined) return [];
  if (typeof value === 'string') {
    // One value: its bucket is kept sorted between changes, so only the filter (if any) runs.
    const sorted = index.sorted(value, byNamespaceAndName);
    return keep === undefined ? sorted : sorted.filter(keep);
  }
  const matches = union(value.map((v) => index.objects(v))).filter((obj) => keep === undefined || keep(obj));
  return matches.sort(byNamespaceAndName);
}

/** predicateOf combines the namespace (needed for index buckets) and selector filters; undefined = keep all. */
function predicateOf(scope: Scope, filters: ListFilters): Predicate | undefined {
  const labels = filters.labelSelector?.empty === false ? filters.labelSelector : undefined;
  const fields = filters.fieldSelector?.empty === false ? filters.fieldSelector : undefined;
  const namespace = filters.index !== undefined ? scope.namespace : undefined;
  const where = scope.where;
  if (labels === undefined && fields === undefined && namespace === undefined && where === undefined) return undefined;
  return (obj) =>
    (namespace === undefined || (obj.metadata.namespace ?? '') === namespace) &&
    (where === undefined || where.matches(obj)) &&
    (labels === undefined || labels.matches(obj.metadata.labels)) &&
    (fields === undefined || fields.matches(obj));
}

/** union merges buckets; an object indexed under several of the values appears once. */
function union(buckets: readonly KubeObject[][]): KubeObject[] {
  if (buckets.length === 1) return buckets[0] ?? [];
  return [...new Set(buckets.flat())];
}

/** byNamespaceAndName is list order within one cluster. */
export function byNamespaceAndName(a: KubeObject, b: KubeObject): number {
  return compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || compareStrings(a.metadata.name ?? '', b.metadata.name ?? '');
}

function sortedKeys(map: { keys(): Iterable<string> }): string[] {
  return [...map.keys()].sort();
}
