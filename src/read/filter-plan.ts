// Turning a CachedObjectFilter into a store query: the most selective index that answers it, and
// a predicate for the rest. A filter no index can answer is refused rather than scanned; a filter
// with no criteria at all is a plain list of everything.

import { AppError } from '../errors.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { groupFromName, schemaOf } from '../apimachinery/gvr.js';
import { parseLabelSelector } from '../apimachinery/label-selector.js';
import type { LabelSelector, Requirement } from '../apimachinery/selector.js';
import { cacheLocation } from '../cachedobjects/cache-location.js';
import {
  BY_GROUP_RESOURCE, BY_SCHEMA, BY_SCHEMA_AND_NAME, BY_SOURCE_CLUSTER_AND_SCHEMA, groupResourceIndexKey,
  schemaAndNameKey, schemaIndexKey, sourceClusterAndSchemaKey,
} from '../cachedobjects/cached-object-indexes.js';
import {
  BY_LABEL, BY_LOCATION_PART, BY_NAMESPACE, labelPresenceKey, labelValueKey, logicalClusterKey, shardKey,
} from '../cachedobjects/cached-object-label-index.js';
import { hasOrigin } from '../cachedobjects/cached-object-origin.js';
import { CACHED_OBJECTS_GROUP, CACHED_OBJECTS_RESOURCE } from '../cachedobjects/cached-object-resource.js';
import type { ListOptions, Scope } from '../store/store.js';
import type { CachedObjectFilter } from './read-model.js';
import { residualCriteria } from './residual-criteria.js';

/** FilterPlan is a store query for a filter; matches checks every criterion (watches use it). */
export interface FilterPlan {
  /** key names the filter (watch and paging scopes are told apart by it). */
  readonly key: string;
  readonly scope: Scope;
  readonly index: ListOptions['index'];
  readonly labelSelector: LabelSelector;
  readonly matches: (obj: KubeObject) => boolean;
}

type Index = NonNullable<ListOptions['index']>;

/** planFilter chooses the index for a filter; BadRequest when no index can answer it. */
export function planFilter(filter: CachedObjectFilter): FilterPlan {
  const labelSelector = parseLabelSelector(filter.labelSelector ?? '');
  const schema = schemaOfFilter(filter);
  const located = filter.shard !== undefined && filter.cluster !== undefined;
  // With no index and no location nothing is implied: the residual is every non-label criterion.
  const criteria = residualCriteria(filter, schema, undefined, false) ?? hasOrigin;
  const matches = (obj: KubeObject): boolean => criteria(obj) && labelSelector.matches(obj.metadata.labels);
  const index = chooseIndex(filter, schema, labelSelector, located);
  // The store checks only what the index and the location leave open: over a large bucket
  // (one schema's copies) a list then costs no per-object work at all.
  const residual = residualCriteria(filter, schema, index, located);
  const key = `filter=${JSON.stringify(filter)}`;
  const scope: Scope = {
    cluster: located ? cacheLocation(filter.shard ?? '', filter.cluster ?? '') : undefined,
    group: CACHED_OBJECTS_GROUP,
    resource: CACHED_OBJECTS_RESOURCE,
    ...(residual === undefined ? {} : { where: { key, matches: residual } }),
  };
  return { key, scope, index, labelSelector, matches };
}

function chooseIndex(filter: CachedObjectFilter, schema: string | undefined, selector: LabelSelector, located: boolean): Index | undefined {
  if (schema !== undefined && filter.name !== undefined) {
    // Without a namespace the bucket holds the name in every namespace; the predicate narrows.
    return { name: BY_SCHEMA_AND_NAME, value: schemaAndNameKey(schema, filter.namespace ?? '', filter.name) };
  }
  if (schema !== undefined && located) {
    return { name: BY_SOURCE_CLUSTER_AND_SCHEMA, value: sourceClusterAndSchemaKey(filter.shard ?? '', filter.cluster ?? '', schema) };
  }
  if (schema !== undefined) return { name: BY_SCHEMA, value: schemaIndexKey(schema) };
  if (filter.group !== undefined && filter.resource !== undefined) {
    return { name: BY_GROUP_RESOURCE, value: groupResourceIndexKey({ group: groupFromName(filter.group), resource: filter.resource }) };
  }
  const byLabel = labelIndex(selector.requirements);
  if (byLabel !== undefined) return byLabel;
  if (filter.namespace !== undefined) return { name: BY_NAMESPACE, value: filter.namespace };
  if (located) return undefined;
  if (filter.cluster !== undefined) return { name: BY_LOCATION_PART, value: logicalClusterKey(filter.cluster) };
  if (filter.clusters !== undefined && filter.shard === undefined) return { name: BY_LOCATION_PART, value: filter.clusters.map(logicalClusterKey) };
  if (filter.shard !== undefined) return { name: BY_LOCATION_PART, value: shardKey(filter.shard) };
  if (isEmpty(filter, selector)) return undefined;
  throw new AppError('BadRequest',
    'this filter cannot be answered from an index: add a schema, group and resource, namespace, cluster, shard, '
    + 'or a label selector with an equality, "in" or exists requirement');
}

/** labelIndex picks the first requirement the label index can answer. */
function labelIndex(requirements: readonly Requirement[]): Index | undefined {
  for (const r of requirements) {
    if (r.operator === '=' && r.values[0] !== undefined) return { name: BY_LABEL, value: labelValueKey(r.key, r.values[0]) };
    if (r.operator === 'in') return { name: BY_LABEL, value: r.values.map((v) => labelValueKey(r.key, v)) };
    if (r.operator === 'exists') return { name: BY_LABEL, value: labelPresenceKey(r.key) };
  }
  return undefined;
}

/** schemaOfFilter is the schema a filter names, directly or as group + version + resource. */
function schemaOfFilter(filter: CachedObjectFilter): string | undefined {
  if (filter.schema !== undefined) return filter.schema;
  if (filter.group === undefined || filter.version === undefined || filter.resource === undefined) return undefined;
  return schemaOf({ group: groupFromName(filter.group), version: filter.version, resource: filter.resource });
}

function isEmpty(filter: CachedObjectFilter, selector: LabelSelector): boolean {
  return selector.empty && filter.clusters === undefined && Object.values(filter).every((v) => v === undefined || v === '');
}
