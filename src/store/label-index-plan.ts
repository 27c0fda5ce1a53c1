// Planning a list's label selector onto a label index (src/apimachinery/label-index.ts). A list of
// CachedObjects selected by their schema label, the way a client watches the copies of one
// resource, would otherwise read the labels of every copy of the table: about half a second of
// event loop at a million copies. With the index the list costs either its bucket (a selective
// value) or a scan with no label read at all (a value every object carries, the usual case of a
// cache of one resource). A value carried by most objects but not all still scans: a bucket that
// large is no cheaper to sort than the table's names.

import { compileLabelSelector } from '../apimachinery/compile-label-selector.js';
import { labelIndexName } from '../apimachinery/label-index.js';
import { clustersIn } from './list-query.js';
import type { ListFilters } from './list-query.js';
import type { ClusterTable, ResourceTable } from './object-table.js';
import type { Scope } from './store.js';

/** SELECTIVE: an index bucket is used when it holds at most this share of the objects in scope. */
const SELECTIVE = 1 / 4;

/**
 * planLabelIndex rewrites a list's filters around a label index when one of the selector's `=` or
 * `in` requirements has one: to an index query when its bucket is selective, or to the selector
 * without that requirement when every object in scope carries the value. Other filters are
 * returned as they are. The rewritten filters select exactly the same objects.
 */
export function planLabelIndex(table: ResourceTable | undefined, scope: Scope, filters: ListFilters): ListFilters {
  const selector = filters.labelSelector;
  if (table === undefined || filters.index !== undefined || selector === undefined || selector.empty) return filters;
  // Counted only once a requirement has an index: most resources have none.
  let counted: { clusters: ClusterTable[]; held: number; inScope: number } | undefined;
  for (const requirement of selector.requirements) {
    if (requirement.operator !== '=' && requirement.operator !== 'in') continue;
    const name = labelIndexName(requirement.key);
    if (!table.indexFns.has(name)) continue;
    counted ??= countScope(clustersIn(table, scope), scope);
    // An object has one value per label, so the buckets of several values never overlap.
    let carrying = 0;
    for (const cluster of counted.clusters) {
      const index = cluster.indexes.get(name);
      for (const value of requirement.values) carrying += index?.count(value) ?? 0;
    }
    if (carrying === counted.held) return { ...filters, labelSelector: compileLabelSelector(selector.requirements.filter((r) => r !== requirement)) };
    if (carrying <= counted.inScope * SELECTIVE) {
      const [only] = requirement.values;
      return { ...filters, index: { name, value: requirement.values.length === 1 && only !== undefined ? only : requirement.values } };
    }
  }
  return filters;
}

/** countScope counts the objects the scope's clusters hold (held) and those of its namespace, if it names one (inScope). */
function countScope(clusters: ClusterTable[], scope: Scope): { clusters: ClusterTable[]; held: number; inScope: number } {
  let held = 0;
  let inScope = 0;
  for (const cluster of clusters) {
    held += cluster.count;
    inScope += scope.namespace === undefined ? cluster.count : (cluster.namespaces.get(scope.namespace)?.size ?? 0);
  }
  return { clusters, held, inScope };
}
