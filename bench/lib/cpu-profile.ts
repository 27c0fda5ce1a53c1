// In-process CPU profiling for benches: profile one phase with node:inspector, save the
// .cpuprofile (open it in Chrome DevTools) and summarise self time by function and by file.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly hitCount?: number;
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

/** PhaseProfiler profiles one phase at a time; stop() writes the profile into dir and prints a summary. */
export class PhaseProfiler {
  readonly #session = new Session();
  readonly #dir: string;
  #connected = false;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async start(): Promise<void> {
    if (!this.#connected) {
      this.#session.connect();
      this.#connected = true;
      await this.#session.post('Profiler.enable');
      await this.#session.post('Profiler.setSamplingInterval', { interval: 200 });
    }
    await this.#session.post('Profiler.start');
  }

  /** stop ends the phase; groups name inclusive-time buckets matched against `function file`. */
  async stop(name: string, groups: Readonly<Record<string, RegExp>> = {}, top = 25): Promise<void> {
    const { profile } = (await this.#session.post('Profiler.stop')) as unknown as { profile: Profile };
    const file = join(this.#dir, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`\n== CPU profile ${name}: ${file}`);
    console.log(summarise(profile, top));
    if (Object.keys(groups).length > 0) console.log(inclusive(profile, groups));
  }
}

/** summarise gives self time per function and per file (ms and % of the profiled wall time). */
export function summarise(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0));
  }
  const total = profile.endTime - profile.startTime;
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = shortUrl(url) || `(${functionName || 'native'})`;
    const fn = `${functionName || '(anonymous)'} ${file}${url ? `:${lineNumber + 1}` : ''}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    byFile.set(file, (byFile.get(file) ?? 0) + us);
  }
  const table = (m: Map<string, number>): string =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top)
      .map(([k, us]) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`).join('\n');
  return `profiled ${(total / 1000).toFixed(0)} ms\n-- self time by file --\n${table(byFile)}\n-- self time by function --\n${table(byFn)}`;
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const src = url.search(/\/(src|bench|test)\//);
  if (src >= 0) return url.slice(src + 1);
  return url.replace(/^node:/, 'node:');
}

/**
 * inclusive gives, per group, the time of samples with at least one frame on their stack
 * matching the group's pattern (tested against `function file`), each sample counted once per group.
 */
export function inclusive(profile: Profile, groups: Readonly<Record<string, RegExp>>): string {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const label = (n: ProfileNode): string => `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}`;
  const totals = new Map<string, number>(Object.keys(groups).map((g) => [g, 0]));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const memo = new Map<number, readonly string[]>();
  const matchesOf = (id: number): readonly string[] => {
    const cached = memo.get(id);
    if (cached) return cached;
    const node = byId.get(id);
    const up = parent.get(id);
    const inherited = up === undefined ? [] : matchesOf(up);
    const own = node ? Object.entries(groups).filter(([, re]) => re.test(label(node))).map(([g]) => g) : [];
    const result = [...new Set([...inherited, ...own])];
    memo.set(id, result);
    return result;
  };
  for (let i = 0; i < samples.length; i++) {
    const us = deltas[i + 1] ?? deltas[i] ?? 0;
    for (const g of matchesOf(samples[i] ?? 0)) totals.set(g, (totals.get(g) ?? 0) + us);
  }
  const total = profile.endTime - profile.startTime;
  return '-- inclusive time by group --\n' + [...totals]
    .map(([g, us]) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)}%  ${g}`).join('\n');
}
