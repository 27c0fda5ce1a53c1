// The overview: sources and their health, the ClusterCachedResources, counts per schema and
// cluster, and two live charts from /metrics (replication lag, request rate). Everything is
// read again every few seconds, and the counts also as soon as the live feed delivers a change
// (batched: a burst of changes costs one refresh). A panel whose API fails says why and keeps
// the others going.

import { UnauthorizedError } from './api-client.js';
import type { ApiClient } from './api-client.js';
import type { ClusterCachedResourceList, SchemaList } from './api-types.js';
import { ccrTable } from './ccr-table.js';
import { h } from './dom.js';
import { formatMs, formatRate } from './format.js';
import { CHART_POINTS, LiveChart } from './live-chart.js';
import { replaceKeepingPlace } from './keep-place.js';
import type { LiveFeed } from './live-feed.js';
import { MetricRates, SCRAPED_METRICS } from './metric-rates.js';
import { parsePrometheusText } from './prometheus-text.js';
import { schemaMatrix } from './schema-matrix.js';
import { SOURCE_SYNC_METRIC, SourceHealthTracker, parseReadyz } from './source-health.js';
import { sourcesTable } from './sources-table.js';
import type { View } from './view.js';

/** REFRESH_MS is how often the overview reads everything again. */
export const REFRESH_MS = 3_000;
/** FEED_BATCH_MS gathers a burst of live changes into one refresh of the counts. */
const FEED_BATCH_MS = 300;
/** CHART_SECONDS is the time the charts span: as many scrapes as they keep. */
const CHART_SECONDS = (CHART_POINTS * REFRESH_MS) / 1000;
/** SCRAPED are the samples of /metrics the overview reads. */
const SCRAPED: ReadonlySet<string> = new Set([...SCRAPED_METRICS, SOURCE_SYNC_METRIC]);

/** OverviewView shows the state of the whole service. */
export class OverviewView implements View {
  readonly id = 'overview';
  readonly title = 'Overview';
  readonly element: HTMLElement;
  private readonly panels = { sources: panel('Sources'), ccrs: panel('ClusterCachedResources'), schemas: panel('Schemas × clusters'), charts: panel('Live metrics') };
  private readonly rates = new MetricRates();
  private readonly health = new SourceHealthTracker();
  private readonly lagChart = new LiveChart('Replication lag', [{ label: 'mean', color: '#1565c0' }, { label: 'p99', color: '#c62828' }], { format: formatMs, floor: 1, windowSeconds: CHART_SECONDS });
  private readonly requestChart = new LiveChart('HTTP requests', [{ label: 'all', color: '#2e7d32' }, { label: '4xx and 5xx', color: '#ef6c00' }], { format: formatRate, floor: 1, windowSeconds: CHART_SECONDS });
  private readonly lastSyncBySource = new Map<string, Date>();
  private countsTimer: ReturnType<typeof setTimeout> | undefined;
  /** countsAsked and countsShown number the refreshes: an answer older than the one shown is dropped. */
  private countsAsked = 0;
  private countsShown = 0;

  constructor(private readonly api: ApiClient, feed: LiveFeed) {
    this.panels.charts.body.replaceChildren(h('div', { class: 'charts' }, this.lagChart.element, this.requestChart.element));
    this.element = h('div', { class: 'overview' }, ...Object.values(this.panels).map((p) => p.element));
    feed.subscribe((event) => {
      if (event !== undefined && this.countsTimer === undefined) this.countsTimer = setTimeout(() => void this.refreshCounts(), FEED_BATCH_MS);
    });
  }

  /** start refreshes now and every REFRESH_MS; the charts need scrapes even while another view is shown. */
  start(): void {
    void this.refresh();
    // A tab in the background asks nothing: its charts resume when it is looked at again.
    setInterval(() => void (document.visibilityState === 'hidden' ? undefined : this.refresh()), REFRESH_MS);
  }

  /** refresh reads every panel's API again. */
  async refresh(): Promise<void> {
    await Promise.all([this.refreshCounts(), this.refreshMetrics()]);
  }

  private async refreshCounts(): Promise<void> {
    clearTimeout(this.countsTimer);
    this.countsTimer = undefined;
    const asked = ++this.countsAsked;
    const [readyz, ccrs, schemas] = await Promise.allSettled([
      this.api.probe('readyz', { verbose: '' }),
      this.api.json<ClusterCachedResourceList>('v1/clustercachedresources'),
      this.api.json<SchemaList>('v1/schemas'),
    ]);
    if (asked < this.countsShown) return;
    this.countsShown = asked;
    const ccrItems = ccrs.status === 'fulfilled' ? ccrs.value.body.items : undefined;
    this.panels.sources.show(readyz, ({ text }) => {
      const checks = parseReadyz(text);
      const observed = { lastSyncBySource: this.lastSyncBySource, lastChangeByShard: this.rates.lastChangeByShard };
      return sourcesTable(this.health.rows(checks, ccrItems, observed, new Date()), checks);
    });
    this.panels.ccrs.show(ccrs, ({ body }) => ccrTable(body.items));
    this.panels.schemas.show(schemas, ({ body }) => schemaMatrix(body.items));
  }

  private async refreshMetrics(): Promise<void> {
    try {
      const samples = parsePrometheusText(await this.api.text('metrics'), SCRAPED);
      for (const sample of samples) {
        if (sample.name === SOURCE_SYNC_METRIC && sample.labels['source'] !== undefined) this.lastSyncBySource.set(sample.labels['source'], new Date(sample.value * 1000));
      }
      const point = this.rates.observe(samples, new Date());
      if (point === undefined) return;
      this.lagChart.push(point.time, [point.lagMeanMs, point.lagP99Ms]);
      this.requestChart.push(point.time, [point.requestsPerSecond, point.errorsPerSecond]);
      this.panels.charts.error(undefined);
    } catch (err) {
      this.panels.charts.error(err);
    }
  }
}

/** Panel is a titled section that shows its content, or why its API failed. */
interface Panel {
  readonly element: HTMLElement;
  readonly body: HTMLElement;
  show<T>(result: PromiseSettledResult<T>, render: (value: T) => HTMLElement): void;
  error(err: unknown): void;
}

function panel(title: string): Panel {
  const id = `panel-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  const body = h('div', { class: 'panel-body' });
  const message = h('p', { class: 'panel-error', role: 'status', hidden: true });
  const element = h('section', { class: 'panel', 'aria-labelledby': id }, h('h2', { id }, title), message, body);
  const error = (err: unknown): void => {
    // A 401 is answered by the token prompt; other failures are said where the data would be.
    message.hidden = err === undefined || err instanceof UnauthorizedError;
    message.textContent = err === undefined ? '' : `Could not read this: ${err instanceof Error ? err.message : String(err)}`;
  };
  return {
    element,
    body,
    show: (result, render) => {
      if (result.status === 'rejected') return error(result.reason);
      error(undefined);
      replaceKeepingPlace(body, render(result.value));
    },
    error,
  };
}
