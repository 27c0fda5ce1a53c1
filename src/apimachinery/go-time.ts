// metav1.Time accepts what Go's time.Parse(time.RFC3339, s) accepts, and refuses the rest with
// Go's own message (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`),
// which is what the Kubernetes API server answers for a malformed timestamp.

const LAYOUT = '2006-01-02T15:04:05Z07:00';

/** LayoutStep is one element of the RFC 3339 layout: a literal, or a number with its digit count and range. */
type LayoutStep =
  | { readonly literal: string }
  | { readonly elem: string; readonly digits: 1 | 2 | 4; readonly max?: number; readonly min?: number; readonly range?: string };

const STEPS: readonly LayoutStep[] = [
  { elem: '2006', digits: 4 },
  { literal: '-' },
  { elem: '01', digits: 2, min: 1, max: 12, range: 'month' },
  { literal: '-' },
  { elem: '02', digits: 2 }, // checked against the month once the whole value has parsed, as Go does
  { literal: 'T' },
  { elem: '15', digits: 1, max: 23, range: 'hour' },
  { literal: ':' },
  { elem: '04', digits: 2, max: 59, range: 'minute' },
  { literal: ':' },
  { elem: '05', digits: 2, max: 59, range: 'second' },
];

/** goTimeError is Go's complaint about an RFC 3339 timestamp, or undefined when it parses. */
export function goTimeError(value: string): string | undefined {
  const fail = (rest: string, elem: string): string => `parsing time ${quote(value)} as ${quote(LAYOUT)}: cannot parse ${quote(rest)} as ${quote(elem)}`;
  const outOfRange = (what: string): string => `parsing time ${quote(value)}: ${what} out of range`;
  let rest = value;
  const numbers: number[] = [];
  for (const step of STEPS) {
    if ('literal' in step) {
      if (!rest.startsWith(step.literal)) return fail(rest, step.literal);
      rest = rest.slice(step.literal.length);
      continue;
    }
    const width = numberWidth(rest, step.digits);
    if (width === 0) return fail(rest, step.elem);
    const n = Number(rest.slice(0, width));
    if (step.range !== undefined && (n < (step.min ?? 0) || n > (step.max ?? Infinity))) return outOfRange(step.range);
    numbers.push(n);
    rest = rest.slice(width);
  }
  rest = rest.replace(/^[.,]\d+/, ''); // fractional seconds are accepted though the layout has none
  const zone = zoneLength(rest);
  if (zone === 0) return fail(rest, 'Z07:00');
  rest = rest.slice(zone);
  if (rest !== '') return `parsing time ${quote(value)}: extra text: ${quote(rest)}`;
  const [year = 0, month = 1, day = 1] = numbers;
  return day < 1 || day > daysIn(month, year) ? outOfRange('day') : undefined;
}

// "2006" needs exactly four digits, "01" two, and "15" one or two (Go's getnum with fixed=false).
function numberWidth(text: string, digits: 1 | 2 | 4): number {
  const isDigit = (i: number): boolean => i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57;
  if (digits === 4) return isDigit(0) && isDigit(1) && isDigit(2) && isDigit(3) ? 4 : 0;
  if (digits === 2) return isDigit(0) && isDigit(1) ? 2 : 0;
  if (!isDigit(0)) return 0;
  return isDigit(1) ? 2 : 1;
}

function zoneLength(text: string): number {
  if (text.startsWith('Z')) return 1;
  return /^[+-]\d\d:\d\d/.test(text) ? 6 : 0;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function quote(text: string): string {
  return JSON.stringify(text);
}
