// A table in a box that scrolls sideways on its own when it is wider than the screen, so that on
// a phone the page itself never scrolls horizontally. The box is focusable, as a scrolling region
// must be for keyboard users to scroll it.

import { h } from './dom.js';
import type { Child } from './dom.js';

/** Cell is a cell's content, or a ready-made cell (to give it attributes). */
export type Cell = Child | HTMLTableCellElement;

/** dataTable makes a captioned table of rows under headers. */
export function dataTable(caption: string, headers: readonly string[], rows: ReadonlyArray<readonly Cell[]>, empty: string): HTMLElement {
  const body = rows.length === 0
    ? [h('tr', {}, h('td', { colspan: headers.length, class: 'empty' }, empty))]
    : rows.map((row) => h('tr', {}, ...row.map((cell) => (cell instanceof HTMLTableCellElement ? cell : h('td', {}, cell)))));
  const table = h('table', {}, h('caption', {}, caption), h('thead', {}, h('tr', {}, ...headers.map((header) => h('th', { scope: 'col' }, header)))), h('tbody', {}, ...body));
  return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': caption }, table);
}
