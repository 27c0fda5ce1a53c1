// One selected object: the original as the facade serves it (a point read of
// /v1/objects/{group}/{version}/{resource}/{name}), as JSON or YAML, with where that read was
// answered from (its X-Cachegate-Source header: `cache`, or `overlay` for a write through
// cachegate the cache has not replicated yet), next to the CachedObject's labels and
// annotations, which say where the copy came from.

import type { ApiClient } from './api-client.js';
import { CLUSTER_ANNOTATION, SHARD_ANNOTATION } from './api-types.js';
import type { CachedObject, KubeObject, SchemaSummary } from './api-types.js';
import { dataTable } from './data-table.js';
import { h } from './dom.js';
import { toYaml } from './yaml-text.js';
import type { JsonValue } from './yaml-text.js';

/** Format is how the original is written out. */
type Format = 'json' | 'yaml';

/** ObjectDetail shows the object selected in the object browser. */
export class ObjectDetail {
  readonly element = h('div', { class: 'object-detail', 'aria-live': 'polite' }, h('p', { class: 'hint' }, 'Select an object to see it here.'));
  private format: Format = 'json';
  /** loading is the object being read: an answer for an object no longer selected is dropped. */
  private loading: CachedObject | undefined;

  constructor(private readonly api: ApiClient) {}

  /** clear empties the pane (a new list was loaded). */
  clear(): void {
    this.loading = undefined;
    this.element.replaceChildren(h('p', { class: 'hint' }, 'Select an object to see it here.'));
  }

  /** show reads the original of a CachedObject and shows it. */
  async show(schema: SchemaSummary, cached: CachedObject): Promise<void> {
    this.loading = cached;
    const raw = cached.spec.raw.metadata;
    const annotations = cached.metadata.annotations ?? {};
    const path = ['v1/objects', schema.group, schema.version, schema.resource, raw.name].map((part, i) => (i === 0 ? part : encodeURIComponent(part))).join('/');
    this.element.replaceChildren(h('p', { class: 'hint' }, `Reading ${raw.name}…`));
    try {
      const answer = await this.api.json<KubeObject>(path, {
        cluster: annotations[CLUSTER_ANNOTATION], shard: annotations[SHARD_ANNOTATION], namespace: raw.namespace ?? '',
      });
      if (this.loading !== cached) return;
      this.render(cached, answer.body, answer.headers);
    } catch (err) {
      if (this.loading !== cached) return;
      this.element.replaceChildren(h('p', { class: 'field-error', role: 'alert' }, `Could not read ${raw.name}: ${err instanceof Error ? err.message : String(err)}`));
    }
  }

  private render(cached: CachedObject, original: KubeObject, headers: Headers): void {
    const text = h('pre', { class: 'original', tabindex: 0, 'aria-label': 'The original object' });
    const buttons = (['json', 'yaml'] as const).map((format) => {
      const button = h('button', { type: 'button', 'data-format': format }, format.toUpperCase());
      button.addEventListener('click', () => {
        this.format = format;
        update();
      });
      return button;
    });
    const update = (): void => {
      text.dataset['format'] = this.format;
      text.textContent = this.format === 'json' ? JSON.stringify(original, null, 2) : toYaml(original as unknown as JsonValue);
      for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset['format'] === this.format));
    };
    update();
    const annotations = cached.metadata.annotations ?? {};
    this.element.replaceChildren(
      h('h2', {}, original.metadata.namespace ? `${original.metadata.namespace}/${original.metadata.name}` : original.metadata.name),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Read from'), h('dd', { 'data-field': 'source' }, headers.get('x-cachegate-source') ?? 'not said'),
        h('dt', {}, 'ETag'), h('dd', { 'data-field': 'etag' }, headers.get('etag') ?? 'none'),
        h('dt', {}, 'Source/cluster'), h('dd', {}, `${annotations[SHARD_ANNOTATION] ?? '?'}/${annotations[CLUSTER_ANNOTATION] ?? '?'}`),
        h('dt', {}, 'CachedObject'), h('dd', {}, h('code', {}, cached.metadata.name))),
      h('div', { class: 'detail-grid' },
        h('div', { class: 'original-box' }, h('div', { role: 'group', 'aria-label': 'Format of the original', class: 'format-toggle' }, ...buttons), text),
        h('div', { class: 'meta-box' },
          pairs('Labels of the CachedObject', cached.metadata.labels ?? {}, 'labels'),
          pairs('Annotations of the CachedObject', annotations, 'annotations'))),
    );
  }
}

function pairs(caption: string, values: Readonly<Record<string, string>>, kind: string): HTMLElement {
  const rows = Object.entries(values).map(([key, value]) => [h('td', { 'data-key': key }, h('code', {}, key)), h('td', { class: 'value' }, value)]);
  const table = dataTable(caption, ['key', 'value'], rows, 'none');
  table.dataset['pairs'] = kind;
  return table;
}
