// What a store query must still check after its index and location: a filter's criteria minus
// those the chosen index value (or the location the query is scoped to) already guarantees.
// Each remaining check reads one label or annotation (ORIGIN_FIELDS), not the whole origin.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { groupFromName } from '../apimachinery/gvr.js';
import {
  BY_GROUP_RESOURCE, BY_SCHEMA, BY_SCHEMA_AND_NAME, BY_SOURCE_CLUSTER_AND_SCHEMA,
} from '../cachedobjects/cached-object-indexes.js';
import { BY_LOCATION_PART, BY_NAMESPACE, logicalClusterKey, shardKey } from '../cachedobjects/cached-object-label-index.js';
import { ORIGIN_FIELDS, hasOrigin } from '../cachedobjects/cached-object-origin.js';
import type { OriginField } from '../cachedobjects/cached-object-origin.js';
import type { ListOptions } from '../store/store.js';
import type { CachedObjectFilter } from './read-model.js';

type Check = (obj: KubeObject) => boolean;
type Index = ListOptions['index'];

/**
 * residualCriteria is the predicate left after index and location, or undefined when they answer
 * the filter's criteria (labels aside: the store applies the label selector itself).
 */
export function residualCriteria(filter: CachedObjectFilter, schema: string | undefined, index: Index, located: boolean): Check | undefined {
  const implied = impliedFields(filter, index, located);
  const wanted = wantedValues(filter, schema);
  const checks: Check[] = [];
  // Indexes keyed through the origin only hold copies that have one; others may not.
  if (!implied.has('origin')) checks.push(hasOrigin);
  for (const [field, value] of wanted) {
    if (implied.has(field)) continue;
    const read = ORIGIN_FIELDS[field];
    checks.push((obj) => read(obj) === value);
  }
  if (filter.clusters !== undefined && !implied.has('clusters')) {
    const clusters = new Set(filter.clusters);
    checks.push((obj) => clusters.has(ORIGIN_FIELDS.cluster(obj)));
  }
  if (checks.length === 0) return undefined;
  return (obj) => checks.every((check) => check(obj));
}

/** wantedValues are the origin fields a filter fixes, with the values they must have. */
function wantedValues(filter: CachedObjectFilter, schema: string | undefined): Array<[OriginField, string]> {
  const wanted: Array<[OriginField, string]> = [];
  const add = (field: OriginField, value: string | undefined): void => {
    if (value !== undefined) wanted.push([field, value]);
  };
  add('shard', filter.shard);
  add('cluster', filter.cluster);
  add('schema', schema);
  add('group', filter.group === undefined ? undefined : groupFromName(filter.group));
  add('version', filter.version);
  add('resource', filter.resource);
  add('namespace', filter.namespace);
  add('name', filter.name);
  return wanted;
}

/** impliedFields are what every object the index value and location return already satisfies. */
function impliedFields(filter: CachedObjectFilter, index: Index, located: boolean): Set<OriginField | 'origin' | 'clusters'> {
  const implied = new Set<OriginField | 'origin' | 'clusters'>(located ? ['shard', 'cluster'] : []);
  // A schema named directly says nothing about separately given group, version or resource.
  const fromGvr = filter.schema === undefined;
  const schemaParts: Array<OriginField | 'origin'> = ['origin', 'schema', ...(fromGvr ? ['group', 'version', 'resource'] as const : [])];
  switch (index?.name) {
    case BY_SCHEMA_AND_NAME:
      // Its keys are not unique (see isCopyOf): only that the copy has an origin is implied.
      implied.add('origin');
      break;
    case BY_SOURCE_CLUSTER_AND_SCHEMA:
      [...schemaParts, 'shard', 'cluster'].forEach((f) => implied.add(f as OriginField | 'origin'));
      break;
    case BY_SCHEMA:
      schemaParts.forEach((f) => implied.add(f));
      break;
    case BY_GROUP_RESOURCE:
      ['origin', 'group', 'resource'].forEach((f) => implied.add(f as OriginField | 'origin'));
      break;
    case BY_NAMESPACE:
      implied.add('namespace');
      break;
    case BY_LOCATION_PART:
      impliedByLocationPart(filter, index.value, implied);
      break;
    default:
      break;
  }
  return implied;
}

function impliedByLocationPart(filter: CachedObjectFilter, value: string | readonly string[], implied: Set<OriginField | 'origin' | 'clusters'>): void {
  if (Array.isArray(value)) implied.add('clusters');
  else if (filter.cluster !== undefined && value === logicalClusterKey(filter.cluster)) implied.add('cluster');
  else if (filter.shard !== undefined && value === shardKey(filter.shard)) implied.add('shard');
}
