// A hand-written SVG of the system bench's scaling: initial sync throughput and replication lag
// p99 (one line per write rate) against the object count, each with its target as a dashed
// line. No charting dependency: two panels of polylines on log-scaled axes.

/** SeriesPoint is what one object count contributes to the plot. */
export interface SeriesPoint {
  readonly n: number;
  readonly syncPerSecond: number;
  /** lagP99Ms maps a write rate (writes/s) to its lag p99. */
  readonly lagP99Ms: Readonly<Record<string, number>>;
}

interface Line {
  readonly label: string;
  readonly color: string;
  readonly points: ReadonlyArray<readonly [number, number]>;
}

interface Panel {
  readonly title: string;
  readonly unit: string;
  readonly logY: boolean;
  readonly lines: readonly Line[];
  readonly target: { readonly value: number; readonly label: string };
}

const W = 420;
const H = 300;
const M = { left: 64, right: 16, top: 36, bottom: 46 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];

/** plotSvg draws throughput and lag p99 against object count. */
export function plotSvg(series: readonly SeriesPoint[]): string {
  const rates = [...new Set(series.flatMap((s) => Object.keys(s.lagP99Ms)))].sort((a, b) => Number(a) - Number(b));
  const panels: Panel[] = [
    {
      title: 'Initial sync throughput', unit: 'objects/s', logY: false, target: { value: 5000, label: 'target ≥ 5,000/s' },
      lines: [{ label: 'CCR created → all copies', color: COLORS[0] ?? 'black', points: series.map((s) => [s.n, s.syncPerSecond] as const) }],
    },
    {
      title: 'Replication lag p99', unit: 'ms (log)', logY: true, target: { value: 50, label: 'target ≤ 50 ms' },
      lines: rates.map((rate, i) => ({
        label: `${Number(rate).toLocaleString('en-US')} writes/s`, color: COLORS[(i + 1) % COLORS.length] ?? 'black',
        points: series.flatMap((s) => (s.lagP99Ms[rate] === undefined ? [] : [[s.n, s.lagP99Ms[rate] ?? 0] as const])),
      })),
    },
  ];
  const body = panels.map((p, i) => `<g transform="translate(${i * W},0)">${panel(p, series.map((s) => s.n))}</g>`).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W * panels.length}" height="${H}" font-family="sans-serif" font-size="11">\n`
    + `<rect width="100%" height="100%" fill="white"/>\n${body}\n</svg>\n`;
}

function panel(p: Panel, ns: readonly number[]): string {
  const values = [...p.lines.flatMap((l) => l.points.map(([, y]) => y)), p.target.value].filter((v) => Number.isFinite(v) && v > 0);
  const yMax = p.logY ? 10 ** Math.ceil(Math.log10(Math.max(...values) * 1.01)) : niceCeil(Math.max(...values) * 1.15);
  const yMin = p.logY ? 10 ** Math.floor(Math.log10(Math.min(...values))) : 0;
  const xMin = Math.min(...ns) / 1.5;
  const xMax = Math.max(...ns) * 1.5;
  const x = (n: number): number => M.left + ((Math.log10(n) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * (W - M.left - M.right);
  const y = (v: number): number => {
    const f = p.logY ? (Math.log10(Math.max(v, yMin)) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin)) : v / yMax;
    return H - M.bottom - f * (H - M.top - M.bottom);
  };
  const yTicks = p.logY
    ? Array.from({ length: Math.round(Math.log10(yMax / yMin)) + 1 }, (_, i) => yMin * 10 ** i)
    : Array.from({ length: 6 }, (_, i) => (yMax / 5) * i);
  const parts = [
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="13" font-weight="bold">${p.title}</text>`,
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="black"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="black"/>`,
    ...yTicks.map((v) => `<text x="${M.left - 6}" y="${y(v) + 4}" text-anchor="end">${label(v)}</text>`
      + `<line x1="${M.left}" y1="${y(v)}" x2="${W - M.right}" y2="${y(v)}" stroke="#eee"/>`),
    ...ns.map((n) => `<text x="${x(n)}" y="${H - M.bottom + 16}" text-anchor="middle">${label(n)}</text>`),
    `<text x="${W / 2}" y="${H - 8}" text-anchor="middle">objects (log)</text>`,
    `<text transform="translate(14,${H / 2}) rotate(-90)" text-anchor="middle">${p.unit}</text>`,
    `<line x1="${M.left}" y1="${y(p.target.value)}" x2="${W - M.right}" y2="${y(p.target.value)}" stroke="#888" stroke-dasharray="5,4"/>`,
    `<text x="${W - M.right - 4}" y="${y(p.target.value) - 4}" text-anchor="end" fill="#666">${p.target.label}</text>`,
    ...p.lines.map((l, i) => line(l, x, y) + `<text x="${M.left + 8}" y="${M.top + 12 + i * 14}" fill="${l.color}">● ${l.label}</text>`),
  ];
  return parts.join('\n');
}

function line(l: Line, x: (n: number) => number, y: (v: number) => number): string {
  const pts = l.points.filter(([, v]) => Number.isFinite(v));
  return `<polyline fill="none" stroke="${l.color}" stroke-width="2" points="${pts.map(([n, v]) => `${x(n).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"/>`
    + pts.map(([n, v]) => `<circle cx="${x(n).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${l.color}"/>`).join('');
}

function niceCeil(v: number): number {
  const step = 10 ** Math.floor(Math.log10(v));
  return Math.ceil(v / step) * step;
}

function label(v: number): string {
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return `${+v.toFixed(2)}`;
}
