// Writing the system bench's results: bench/results/latest.json (every figure with its target and
// whether it was met, plus the machine), latest.md (the table the README shows) and
// lag-throughput.svg (plot.ts).

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Figure, PhaseResult } from './figures.js';
import { plotSvg } from './plot.js';
import type { SeriesPoint } from './plot.js';

/** RESULTS_DIR is where the results go, relative to the repository root. */
export const RESULTS_DIR = 'bench/results';

/** Machine says where the figures were measured. */
export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly kernel: string;
}

/** Results is latest.json. */
export interface Results {
  readonly date: string;
  readonly machine: Machine;
  readonly wallSeconds: number;
  readonly loadGenerator: string;
  /** notes say how the run departed from the default one (run-notes.ts). */
  readonly notes: readonly string[];
  readonly figures: readonly Figure[];
  readonly series: readonly SeriesPoint[];
}

/** machine describes this machine. */
export function machine(): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown', cores: list.length, memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version, kernel: release(),
  };
}

/** seriesOf picks, per object count, what the plot shows. */
export function seriesOf(phases: readonly PhaseResult[]): SeriesPoint[] {
  return phases.map((p) => ({
    n: p.n,
    syncPerSecond: p.sync.perSecond,
    lagP99Ms: Object.fromEntries(p.lags.map((l) => [l.rate, l.p99])),
  }));
}

/**
 * ResultFiles names the three files of a run: a full run's are latest.json, latest.md and
 * lag-throughput.svg (what the README shows); a partial run (PHASES) writes partial.json,
 * partial.md and partial-lag-throughput.svg instead (git-ignored), so profiling one phase never
 * replaces the last full run's figures; a full run at another scale (SCALE_N=5000000) writes
 * scale-5m.json, scale-5m.md and scale-5m-lag-throughput.svg.
 */
export type ResultFiles = 'latest' | 'partial' | `scale-${number}m`;

/** writeResults writes the three files under root and returns the Markdown. */
export function writeResults(root: string, results: Results, files: ResultFiles): string {
  const dir = join(root, RESULTS_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${files}.json`), `${JSON.stringify(results, null, 2)}\n`);
  const md = markdown(results);
  writeFileSync(join(dir, `${files}.md`), md);
  writeFileSync(join(dir, files === 'latest' ? 'lag-throughput.svg' : `${files}-lag-throughput.svg`), plotSvg(results.series));
  return md;
}

/** markdown is the results table, headed by when and where it was measured. */
export function markdown(r: Results): string {
  const m = r.machine;
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  const lines = [
    `Measured ${r.date.slice(0, 10)} on ${m.cores} × ${m.cpu}, ${m.memoryGiB} GiB RAM, Node ${m.node}, Linux ${m.kernel}; `
      + `\`npm run bench\` took ${Math.round(r.wallSeconds)} s. Load generator: ${r.loadGenerator}.`,
    ...r.notes.map((note) => `\n${note}`),
    '',
    '| figure | value | reference | ratio | target | met |',
    '|---|---|---|---|---|---|',
    ...r.figures.map((f) => `| ${cell(f.name)} | ${cell(f.text)} | ${f.reference ? cell(`${f.reference.name}: ${f.reference.text}`) : ''} | `
      + `${f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}x`} | ${f.target?.text ?? ''} | ${f.target ? (f.target.met ? 'yes' : '**no**') : ''} |`),
  ];
  return `${lines.join('\n')}\n`;
}

/** printTable writes the figures to stdout. */
export function printTable(figures: readonly Figure[]): void {
  console.table(figures.map((f) => ({
    figure: f.name, value: f.text, reference: f.reference ? `${f.reference.name}: ${f.reference.text}` : '',
    ratio: f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}x`, target: f.target?.text ?? '', met: f.target ? (f.target.met ? 'yes' : 'NO') : '',
  })));
}
