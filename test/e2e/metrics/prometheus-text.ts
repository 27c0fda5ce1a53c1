// Reading Prometheus' text exposition format in tests, and Prometheus' own checker of it: promtool
// (Debian's prometheus package, installed by scripts/ensure-test-tools.sh).

import { spawn } from 'node:child_process';

/** PROMTOOL is Prometheus' command-line checker. */
export const PROMTOOL = '/usr/bin/promtool';

/** Sample is one line of a scrape: a series and its value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** samplesOf parses the sample lines of a scrape (comments skipped). */
export function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key = '', value = ''] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/** valuesOf are the values of the series of name whose labels include labels. */
export function valuesOf(text: string, name: string, labels: Readonly<Record<string, string>> = {}): number[] {
  return samplesOf(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .map((s) => s.value);
}

/** familiesOf are the metric names a scrape declares (one `# TYPE` line each), with their types. */
export function familiesOf(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']));
}

/** PromtoolResult is how promtool ended and everything it printed. */
export interface PromtoolResult {
  readonly code: number | null;
  readonly output: string;
}

/** promtool runs promtool with args, feeding it stdin. */
export function promtool(args: readonly string[], stdin = ''): Promise<PromtoolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(stdin);
  });
}
