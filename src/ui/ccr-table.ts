// The ClusterCachedResources of every source (/v1/clustercachedresources) as the controller
// reports them: phase, conditions, objects in the source (local) and in the cache, and the
// identity hash. A source that cannot be reached has no local count (cachegate does not know it)
// and a SourceReachable=False condition saying why.

import { CLUSTER_ANNOTATION } from './api-types.js';
import type { ClusterCachedResource, Condition } from './api-types.js';
import { dataTable } from './data-table.js';
import { h } from './dom.js';
import { shardOf } from './source-health.js';

/** ccrTable makes the table of CCRs. */
export function ccrTable(ccrs: readonly ClusterCachedResource[]): HTMLElement {
  const rows = ccrs.map((ccr) => {
    const status = ccr.status ?? {};
    const spec = ccr.spec ?? {};
    const counts = status.resourceCounts ?? {};
    const where = `${shardOf(ccr)}/${ccr.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''}`;
    return [
      h('td', { 'data-ccr': ccr.metadata.name, 'data-where': where }, ccr.metadata.name),
      where,
      h('code', {}, `${spec.resource ?? '?'}.${spec.group === '' ? 'core' : (spec.group ?? '?')}/${spec.version ?? '?'}`),
      h('td', { 'data-field': 'phase' }, h('span', { class: `phase phase-${(status.phase ?? 'unknown').toLowerCase()}` }, status.phase ?? 'no status yet')),
      h('ul', { class: 'conditions' }, ...(status.conditions ?? []).map(conditionItem)),
      h('td', { 'data-field': 'local', class: 'number' }, counts.local === undefined ? 'unknown' : String(counts.local)),
      h('td', { 'data-field': 'cache', class: 'number' }, counts.cache === undefined ? 'unknown' : String(counts.cache)),
      h('td', { 'data-field': 'identity-hash' }, h('code', { class: 'hash' }, status.identityHash ?? 'not set yet')),
    ];
  });
  return dataTable('ClusterCachedResources', ['name', 'source/cluster', 'resource', 'phase', 'conditions', 'local', 'cache', 'identity hash'], rows, 'No ClusterCachedResource yet: create one in a source to replicate its objects.');
}

function conditionItem(condition: Condition): HTMLElement {
  const healthy = condition.status === 'True';
  const why = [condition.reason, condition.message].filter((part) => part !== undefined && part !== '').join(': ');
  return h('li', { class: healthy ? 'condition ok' : 'condition bad', title: why },
    `${condition.type}=${condition.status}`, why === '' || healthy ? '' : ` (${why})`);
}
