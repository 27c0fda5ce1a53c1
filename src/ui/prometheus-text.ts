// Reads the Prometheus text exposition format that /metrics serves: one sample per line,
// `name{label="value",...} value`, with `#` lines for help and types. Only what the charts need
// is kept; a line that does not parse is skipped rather than failing the whole scrape.

/** Sample is one line of a scrape. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** parsePrometheusText returns the samples whose metric name is one of names. */
export function parsePrometheusText(text: string, names: ReadonlySet<string>): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (match === null || !names.has(match[1] ?? '')) continue;
    const value = parseValue(match[3] ?? '');
    if (value === undefined) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(LABEL)) labels[label[1] ?? ''] = unescape(label[2] ?? '');
    samples.push({ name: match[1] ?? '', labels, value });
  }
  return samples;
}

function parseValue(text: string): number | undefined {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  const value = Number(text);
  return Number.isNaN(value) ? undefined : value;
}

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_all, char: string) => (char === 'n' ? '\n' : char));
}
