// Schemas × clusters: how many CachedObjects of each replicated schema each (source, logical
// cluster) holds, from /v1/schemas, with each row's total. Each count cell names its schema,
// shard and cluster in data attributes, which is also how the browser tests find them.

import type { SchemaSummary } from './api-types.js';
import { dataTable } from './data-table.js';
import type { Cell } from './data-table.js';
import { h } from './dom.js';

/** schemaMatrix makes the table of counts. */
export function schemaMatrix(schemas: readonly SchemaSummary[]): HTMLElement {
  const places = new Map<string, { shard: string; cluster: string }>();
  for (const schema of schemas) for (const place of schema.clusters) places.set(`${place.shard}/${place.cluster}`, place);
  const columns = [...places.keys()].sort();
  const rows = schemas.map((schema): Cell[] => {
    const counts = new Map(schema.clusters.map((place) => [`${place.shard}/${place.cluster}`, place.count]));
    return [
      h('th', { scope: 'row' }, h('code', {}, schema.name)),
      ...columns.map((column) => {
        const place = places.get(column);
        const count = counts.get(column) ?? 0;
        return h('td', { class: 'number', 'data-schema': schema.name, 'data-shard': place?.shard, 'data-cluster': place?.cluster, 'data-count': count }, String(count));
      }),
      h('td', { class: 'number total', 'data-schema': schema.name, 'data-total': schema.count }, String(schema.count)),
    ] as Cell[];
  });
  return dataTable('CachedObjects per schema and cluster', ['schema', ...columns, 'total'], rows, 'Nothing replicated yet.');
}
