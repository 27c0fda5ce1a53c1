// The one duration grammar of the config, Go's time.ParseDuration (what kube and kubectl accept)
// narrowed to what a config needs: `0`, or one or more terms `<number><unit>` with no spaces and
// no sign, the number digits with an optional fraction (`1.5h`), the unit `h`, `m`, `s` or `ms`.
// Terms add up in any order, as in Go (`1h30m`, `90m`, `30s1m`); the total is rounded to the
// millisecond. Units below a millisecond are refused: cachegate's clocks count milliseconds.

const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
// `ms` before `m`, so that `500ms` is one term and not `500m` followed by a stray `s`.
const TERMS = /^(?:\d+(?:\.\d+)?(?:ms|h|m|s))+$/;
const TERM = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;

/** DURATION_EXAMPLES are what messages and docs show of the grammar. */
export const DURATION_EXAMPLES = '1h30m, 90s or 500ms';

/** parseDuration gives a duration's milliseconds, or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (!TERMS.test(text)) return undefined;
  let total = 0;
  // matchAll works on a copy of TERM, so the module's regex keeps no state between calls.
  for (const [, amount, unit] of text.matchAll(TERM)) total += Number(amount) * (UNIT_MS[unit ?? ''] ?? Number.NaN);
  const ms = Math.round(total);
  return Number.isSafeInteger(ms) ? ms : undefined;
}
