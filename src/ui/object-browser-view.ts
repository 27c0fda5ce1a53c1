// The object browser: pick a schema and a cluster (from /v1/schemas), narrow with a label
// selector in the API's own grammar (sent as `labelSelector`; the API's message is shown next
// to the box when it refuses one with 400), page with `limit` and `continue`, and select an
// object to see it in full (ObjectDetail). Lists are CachedObjects of the schema
// (/v1/cachedobjects?schema=...), which name each original's source and cluster.

import { ApiError, UnauthorizedError } from './api-client.js';
import type { ApiClient } from './api-client.js';
import { CLUSTER_ANNOTATION, SHARD_ANNOTATION } from './api-types.js';
import type { CachedObject, CachedObjectList, SchemaList, SchemaSummary } from './api-types.js';
import { h } from './dom.js';
import { ObjectDetail } from './object-detail.js';
import type { View } from './view.js';

const PAGE_SIZES = ['5', '10', '20', '50', '100'];
const ALL_CLUSTERS = '';

/** ObjectBrowserView lists and shows replicated objects. */
export class ObjectBrowserView implements View {
  readonly id = 'objects';
  readonly title = 'Objects';
  readonly element: HTMLElement;
  private readonly schemaSelect = h('select', { id: 'object-schema', name: 'schema' });
  private readonly placeSelect = h('select', { id: 'object-place', name: 'place' });
  private readonly selectorInput = h('input', { id: 'object-selector', name: 'labelSelector', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'tier in (web,db),!canary', 'aria-describedby': 'object-selector-help object-selector-error' });
  private readonly selectorError = h('p', { id: 'object-selector-error', class: 'field-error', role: 'alert', hidden: true });
  private readonly limitSelect = h('select', { id: 'object-limit', name: 'limit' }, ...PAGE_SIZES.map((size) => h('option', { value: size, selected: size === '20' }, size)));
  private readonly list = h('ul', { class: 'object-list', 'aria-label': 'Objects of this page' });
  private readonly pageInfo = h('span', { class: 'page-info', 'aria-live': 'polite' });
  private readonly previous = h('button', { type: 'button', disabled: true }, 'Previous page');
  private readonly next = h('button', { type: 'button', disabled: true }, 'Next page');
  private readonly detail: ObjectDetail;
  private schemas: readonly SchemaSummary[] = [];
  /** continues are the tokens of the pages shown so far: '' is the first page. */
  private continues: string[] = [''];
  /** generation counts list requests: an answer to an older one is dropped. */
  private generation = 0;
  /** listed is set once a list was shown: showing the view again keeps it (and the selection). */
  private listed = false;
  /** selected is the selectionKey of the object whose detail is shown. */
  private selected: string | undefined;

  constructor(private readonly api: ApiClient) {
    this.detail = new ObjectDetail(api);
    const form = h('form', { class: 'object-query' },
      field('Schema', this.schemaSelect), field('Cluster', this.placeSelect),
      h('div', { class: 'field selector-field' }, h('label', { for: this.selectorInput.id }, 'Label selector'), this.selectorInput,
        h('p', { id: 'object-selector-help', class: 'hint' }, 'The API\'s grammar: key=value, key!=value, key in (a,b), key notin (a,b), key, !key; comma-separated.'),
        this.selectorError),
      field('Page size', this.limitSelect),
      h('button', { type: 'submit' }, 'List objects'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.load(['']);
    });
    this.schemaSelect.addEventListener('change', () => {
      this.fillPlaces();
      void this.load(['']);
    });
    for (const select of [this.placeSelect, this.limitSelect]) select.addEventListener('change', () => void this.load(['']));
    this.previous.addEventListener('click', () => void this.load(this.continues.slice(0, -1)));
    this.next.addEventListener('click', () => void this.load([...this.continues, this.next.dataset['continue'] ?? '']));
    this.element = h('div', { class: 'browser' }, form,
      h('div', { class: 'browser-grid' },
        h('div', { class: 'list-box' }, this.list, h('div', { class: 'pager' }, this.previous, this.pageInfo, this.next)),
        this.detail.element));
  }

  /** shown reads the schemas again (new ones may have appeared); the first time, it lists too. */
  shown(): void {
    void this.loadSchemas(!this.listed);
  }

  /** refresh reads the schemas and the current page again (after a new token). */
  refresh(): void {
    void this.loadSchemas(true);
  }

  private async loadSchemas(list: boolean): Promise<void> {
    try {
      this.schemas = (await this.api.json<SchemaList>('v1/schemas')).body.items;
    } catch (err) {
      this.showError(err);
      return;
    }
    const chosen = this.schemaSelect.value;
    this.schemaSelect.replaceChildren(...this.schemas.map((schema) => h('option', { value: schema.name, selected: schema.name === chosen }, schema.name)));
    if (this.schemas.length === 0) this.schemaSelect.append(h('option', { value: '' }, 'nothing replicated yet'));
    this.fillPlaces();
    if (list) await this.load(this.continues);
  }

  private fillPlaces(): void {
    const chosen = this.placeSelect.value;
    const places = this.schema()?.clusters ?? [];
    this.placeSelect.replaceChildren(h('option', { value: ALL_CLUSTERS }, 'all clusters'),
      ...places.map((place) => {
        const value = `${place.shard}/${place.cluster}`;
        return h('option', { value, selected: value === chosen }, `${value} (${place.count})`);
      }));
  }

  private schema(): SchemaSummary | undefined {
    return this.schemas.find((schema) => schema.name === this.schemaSelect.value);
  }

  /** load lists the last page of continues (the tokens that lead to it). */
  private async load(continues: string[]): Promise<void> {
    const schema = this.schema();
    if (schema === undefined) return;
    const generation = ++this.generation;
    const [shard, cluster] = this.placeSelect.value === ALL_CLUSTERS ? [undefined, undefined] : this.placeSelect.value.split('/');
    const selector = this.selectorInput.value.trim();
    let page: CachedObjectList;
    try {
      page = (await this.api.json<CachedObjectList>('v1/cachedobjects', {
        schema: schema.name, shard, cluster, labelSelector: selector === '' ? undefined : selector,
        limit: this.limitSelect.value, continue: continues.at(-1) || undefined,
      })).body;
    } catch (err) {
      if (generation !== this.generation) return;
      this.showError(err);
      // What is listed must match what the boxes say: a refused list shows nothing.
      if (!(err instanceof UnauthorizedError)) this.render(schema, { metadata: { resourceVersion: '' }, items: [] }, 'Nothing listed: see the message above.');
      return;
    }
    if (generation !== this.generation) return;
    this.showError(undefined);
    this.listed = true;
    this.continues = continues;
    this.render(schema, page);
  }

  private render(schema: SchemaSummary, page: CachedObjectList, empty = 'No object matches.'): void {
    // A list answered again (a late answer, the same list asked twice) keeps the selected object
    // and its detail while the page still holds it; only a page without it clears the detail.
    const keys = page.items.map(selectionKey);
    const kept = this.selected === undefined ? -1 : keys.indexOf(this.selected);
    if (kept < 0) {
      this.selected = undefined;
      this.detail.clear();
    }
    const buttons = page.items.map((item) => objectButton(item));
    buttons.forEach((button, i) => {
      if (i === kept) button.setAttribute('aria-pressed', 'true');
      button.addEventListener('click', () => {
        for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
        this.selected = keys[i];
        void this.detail.show(schema, page.items[i] as CachedObject);
      });
    });
    // A list rendered again (a later answer for the same choice) keeps a keyboard user's focus on the object it was on.
    const focused = document.activeElement instanceof HTMLElement && this.list.contains(document.activeElement) ? document.activeElement.dataset['object'] : undefined;
    this.list.replaceChildren(...(buttons.length === 0 ? [h('li', { class: 'empty' }, empty)] : buttons.map((button) => h('li', {}, button))));
    if (focused !== undefined) buttons.find((button) => button.dataset['object'] === focused)?.focus({ preventScroll: true });
    const more = page.metadata.remainingItemCount;
    this.pageInfo.textContent = `Page ${this.continues.length}${more === undefined ? '' : ` · ${more} more`}`;
    this.previous.disabled = this.continues.length === 1;
    this.next.disabled = page.metadata.continue === undefined;
    this.next.dataset['continue'] = page.metadata.continue ?? '';
  }

  /** showError says why a list failed next to the selector box (the API's own words), or hides it. */
  private showError(err: unknown): void {
    // A 401 is answered by the token prompt.
    const message = err === undefined || err instanceof UnauthorizedError ? '' : err instanceof ApiError ? err.message : `Could not list: ${String(err)}`;
    this.selectorError.textContent = message;
    this.selectorError.hidden = message === '';
    this.selectorInput.setAttribute('aria-invalid', String(err instanceof ApiError && err.status === 400));
  }
}

function field(label: string, control: HTMLSelectElement): HTMLElement {
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control);
}

/** selectionKey names a CachedObject across lists: its source, its logical cluster and its own name. */
function selectionKey(item: CachedObject): string {
  const annotations = item.metadata.annotations ?? {};
  return `${annotations[SHARD_ANNOTATION] ?? ''}/${annotations[CLUSTER_ANNOTATION] ?? ''}/${item.metadata.name}`;
}

function objectButton(item: CachedObject): HTMLButtonElement {
  const raw = item.spec.raw.metadata;
  const annotations = item.metadata.annotations ?? {};
  return h('button', { type: 'button', class: 'object-item', 'aria-pressed': 'false', 'data-object': raw.name },
    h('span', { class: 'object-name' }, raw.namespace ? `${raw.namespace}/${raw.name}` : raw.name),
    h('span', { class: 'object-where' }, `${annotations[SHARD_ANNOTATION] ?? '?'}/${annotations[CLUSTER_ANNOTATION] ?? '?'}`));
}
