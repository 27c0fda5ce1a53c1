// The sources and the replica's other readiness checks (serving, backend, leader) as
// /readyz?verbose reports them, with what the page learnt over time: when each source last
// passed its check and when it last had a change replicated.

import { dataTable } from './data-table.js';
import { h } from './dom.js';
import { formatTime } from './format.js';
import { SOURCE_CHECK_PREFIX } from './source-health.js';
import type { ReadyzCheck, SourceRow } from './source-health.js';

/** sourcesTable makes the sources table and the list of the other checks. */
export function sourcesTable(rows: readonly SourceRow[], checks: readonly ReadyzCheck[]): HTMLElement {
  const table = dataTable('Sources', ['source', 'health', 'last successful sync', 'last replicated change', 'CCRs ready'], rows.map((row) => [
    h('td', { 'data-source': row.name }, row.name),
    h('td', { 'data-field': 'health' }, health(row.ok), row.detail === '' ? '' : h('span', { class: 'detail' }, ` ${row.detail}`)),
    formatTime(row.lastSync, 'not yet'),
    formatTime(row.lastChange, 'none since this page opened'),
    row.ccrs === undefined ? 'unknown' : `${row.readyCcrs ?? 0} of ${row.ccrs}`,
  ]), 'No source is configured.');
  const others = checks.filter((check) => !check.name.startsWith(SOURCE_CHECK_PREFIX));
  const list = h('ul', { class: 'checks', 'aria-label': 'Other readiness checks' }, ...others.map((check) =>
    h('li', {}, health(check.ok), ` ${check.name}`, check.detail === '' ? '' : h('span', { class: 'detail' }, ` (${check.detail})`))));
  return h('div', {}, table, list);
}

function health(ok: boolean | undefined): HTMLElement {
  if (ok === undefined) return h('span', { class: 'health unknown' }, 'unknown');
  return h('span', { class: ok ? 'health ok' : 'health bad' }, ok ? 'healthy' : 'failing');
}
