// The replicated schemas with their per-cluster counts, from the counts of one index: no object
// is visited. The index value is `<shard>|<cluster>|<schema>`, and a schema string is
// `<version>.<resource>.<group>` where only the group may contain dots.

import type { IndexCount } from '../store/store.js';
import type { SchemaSummary } from './read-model.js';
import { compareStrings } from '../apimachinery/compare-strings.js';

/** summarizeSchemas groups index counts by schema, sorted by schema then shard and cluster. */
export function summarizeSchemas(counts: readonly IndexCount[]): SchemaSummary[] {
  const bySchema = new Map<string, Array<{ shard: string; cluster: string; count: number }>>();
  for (const { value, count } of counts) {
    const [shard = '', cluster = '', schema = ''] = value.split('|');
    let clusters = bySchema.get(schema);
    if (!clusters) bySchema.set(schema, (clusters = []));
    clusters.push({ shard, cluster, count });
  }
  return [...bySchema.entries()].sort(([a], [b]) => compareStrings(a, b)).map(([name, clusters]) => {
    const [version = '', resource = ''] = name.split('.', 2);
    // The group stays as the schema writes it (`core` for the core group), as in paths and filters.
    const group = name.slice(version.length + resource.length + 2);
    clusters.sort((a, b) => compareStrings(a.shard, b.shard) || compareStrings(a.cluster, b.cluster));
    return { name, group, version, resource, count: clusters.reduce((sum, c) => sum + c.count, 0), clusters };
  });
}
