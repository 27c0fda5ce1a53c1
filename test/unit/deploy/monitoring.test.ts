// deploy/monitoring/: the Grafana dashboard and the PrometheusRule parse, every metric their
// PromQL reads is one a running app declares on /metrics (with the overlay on, so that its metrics
// are declared too), and promtool accepts the rule groups as a plain Prometheus rule file.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestApp } from '../../helpers/test-app.js';
import type { TestApp } from '../../helpers/test-app.js';
import { familiesOf, promtool } from '../../e2e/metrics/prometheus-text.js';

const MONITORING = fileURLToPath(new URL('../../../deploy/monitoring/', import.meta.url));

/** PROMETHEUS_SERIES are the series Prometheus itself adds to every target: no app declares them. */
const PROMETHEUS_SERIES = ['up'];

/** HISTOGRAM_SERIES are the suffixes of a histogram family's series. */
const HISTOGRAM_SERIES = ['_bucket', '_sum', '_count'];

/** PROMQL_WORDS are the PromQL keywords that look like metric names. */
const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

interface Rule {
  readonly alert: string;
  readonly expr: string;
  readonly for?: string;
}
interface PrometheusRule {
  readonly apiVersion: string;
  readonly kind: string;
  readonly spec: { readonly groups: ReadonlyArray<{ readonly name: string; readonly rules: readonly Rule[] }> };
}
interface Panel {
  readonly title?: string;
  readonly targets?: ReadonlyArray<{ readonly expr?: string }>;
  readonly panels?: readonly Panel[];
}
interface Dashboard {
  readonly panels: readonly Panel[];
  readonly templating: { readonly list: ReadonlyArray<{ readonly definition?: string }> };
}

/**
 * metricNamesIn lists the metric names a PromQL expression selects: what is left once strings,
 * label matchers, ranges, grouping clauses and Grafana variables are gone, minus function calls
 * (a name followed by a parenthesis), keywords and numbers.
 */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  return [...bare.matchAll(/(?<![\w.:])([a-zA-Z_:][\w:]*)(?![\w:]|\s*\()/g)].map((m) => m[1] ?? '').filter((word) => !PROMQL_WORDS.has(word.toLowerCase()));
}

/** dashboardQueries are every panel's PromQL (rows' nested panels too) and the metrics its variables read. */
function dashboardQueries(dashboard: Dashboard): string[] {
  const walk = (panels: readonly Panel[]): string[] =>
    panels.flatMap((panel) => [...(panel.targets ?? []).flatMap((t) => (t.expr ? [t.expr] : [])), ...walk(panel.panels ?? [])]);
  const variables = dashboard.templating.list.flatMap((v) => [...(v.definition ?? '').matchAll(/label_values\(\s*([^,)\s]+)/g)].map((m) => m[1] ?? ''));
  return [...walk(dashboard.panels), ...variables];
}

describe('deploy/monitoring', () => {
  let app: TestApp;
  let declared: Map<string, string>;
  let dashboard: Dashboard;
  let rules: PrometheusRule;

  beforeAll(async () => {
    app = await startTestApp({ cache: { enabled: true, gvks: ['v1/ConfigMap'], ttl: '2m' } });
    declared = familiesOf(await (await fetch(`${app.url}/metrics`)).text());
    dashboard = JSON.parse(await readFile(join(MONITORING, 'grafana-dashboard.json'), 'utf8')) as Dashboard;
    rules = parse(await readFile(join(MONITORING, 'prometheus-rules.yaml'), 'utf8')) as PrometheusRule;
  });
  afterAll(async () => app?.stop());

  const isSeriesOfTheApp = (name: string): boolean =>
    PROMETHEUS_SERIES.includes(name) || declared.has(name) ||
    HISTOGRAM_SERIES.some((suffix) => name.endsWith(suffix) && declared.get(name.slice(0, -suffix.length)) === 'histogram');
  const ruleExprs = (): string[] => rules.spec.groups.flatMap((group) => group.rules.map((rule) => rule.expr));

  it('case 1: both files parse: the dashboard as JSON with panels, the rules as a PrometheusRule with groups', () => {
    expect(dashboard.panels.length).toBeGreaterThan(0);
    expect(rules.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(rules.kind).toBe('PrometheusRule');
    expect(rules.spec.groups.length).toBeGreaterThan(0);
  });

  it('case 2: every metric the dashboard reads is declared by the app', () => {
    const names = dashboardQueries(dashboard).flatMap(metricNamesIn);
    expect(names.length).toBeGreaterThan(10);
    expect([...new Set(names)].filter((name) => !isSeriesOfTheApp(name))).toEqual([]);
  });

  it('case 3: every metric the alerting rules read is declared by the app (or added by Prometheus: up)', () => {
    const names = ruleExprs().flatMap(metricNamesIn);
    expect(names.length).toBeGreaterThan(0);
    expect([...new Set(names)].filter((name) => !isSeriesOfTheApp(name))).toEqual([]);
  });

  it('case 4: the dashboard shows requests and latency by route, replication lag, CCR phases, sources, overlay, event loop and heap', () => {
    const queries = dashboardQueries(dashboard).join('\n');
    for (const needed of [
      /by \(route\) \(rate\(http_request_duration_seconds_count/, /by \(le, route\) \(rate\(http_request_duration_seconds_bucket/,
      /cachegate_replication_lag_seconds_bucket/, /cachegate_ccr_phase/, /cachegate_source_up/, /cachegate_overlay_entries/,
      /nodejs_eventloop_lag_p99_seconds/, /nodejs_heap_size_used_bytes/,
    ]) expect(queries).toMatch(needed);
  });

  it('case 5: the alerts cover a source down, replication lag, a CCR not Ready and readiness, each for its time', () => {
    const byName = new Map(rules.spec.groups.flatMap((group) => group.rules.map((rule) => [rule.alert, rule] as const)));
    expect(byName.get('CachegateSourceDown')).toMatchObject({ expr: expect.stringContaining('cachegate_source_up'), for: '5m' });
    expect(byName.get('CachegateReplicationLagHigh')?.expr).toMatch(/histogram_quantile\(0\.99, .*cachegate_replication_lag_seconds_bucket\[5m\].*\) > 1$/);
    expect(byName.get('CachegateClusterCachedResourceNotReady')).toMatchObject({ expr: expect.stringContaining('phase="Ready"'), for: '10m' });
    expect(byName.get('CachegateNotReady')).toMatchObject({ expr: 'cachegate_ready == 0', for: '5m' });
    expect(byName.get('CachegateDown')?.expr).toMatch(/^up\{/);
  });

  it('case 6: promtool check rules accepts the rule groups', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cachegate-rules-'));
    try {
      const file = join(dir, 'rules.json');
      // JSON is YAML: promtool reads the plain rule file Prometheus would load.
      await writeFile(file, JSON.stringify({ groups: rules.spec.groups }));
      const checked = await promtool(['check', 'rules', file]);
      expect(checked.output).toContain(`SUCCESS: ${ruleExprs().length} rules found`);
      expect(checked.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
