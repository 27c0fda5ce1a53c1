// fast-check arbitraries for Kubernetes vocabulary shared by the property tests: DNS labels and
// subdomains, qualified label keys, label values and hostile free text. Each is built from the
// grammar Kubernetes documents, not from the code under test, so a property can disagree with it.

import fc from 'fast-check';
import { runSeeds } from '../helpers/run-seeds.js';

/** PROPERTY_RUNS bounds every property so the folder stays well under 30 s; FC_RUNS raises it. */
export const PROPERTY_RUNS = Number(process.env.FC_RUNS ?? 300);

/**
 * fcOptions are the assertion options of every property: bounded runs, and the run's seed (FC_SEED
 * or a random one, printed at the start of the run), which fast-check also names on a failure.
 */
export function fcOptions(runs = PROPERTY_RUNS): fc.Parameters<unknown> {
  return { numRuns: runs, seed: runSeeds().property };
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
const MIXED = `${LOWER}ABCDEFGHIJKLMNOPQRSTUVWXYZ`;

function word(alphabet: string, inner: string, maxLength: number): fc.Arbitrary<string> {
  const edge = fc.constantFrom(...alphabet);
  const middle = fc.string({ unit: fc.constantFrom(...(alphabet + inner)), maxLength: Math.max(0, maxLength - 2) });
  return fc.oneof(
    edge,
    fc.tuple(edge, middle, edge).map(([a, b, c]) => a + b + c),
  );
}

/** dnsLabel is a DNS-1123 label: lowercase alphanumerics and '-', at most 63 characters. */
export const dnsLabel: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: word(LOWER, '-', 12) },
  { weight: 1, arbitrary: word(LOWER, '-', 63) },
);

/** dnsSubdomain is a DNS-1123 subdomain of at most maxLength characters. */
export function dnsSubdomain(maxLength = 253): fc.Arbitrary<string> {
  return fc
    .array(dnsLabel, { minLength: 1, maxLength: 5 })
    .map((labels) => labels.join('.'))
    .filter((name) => name.length <= maxLength);
}

/** labelName is the name part of a qualified name: at most 63, alphanumeric ends, `-_.` inside. */
export const labelName: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: word(MIXED, '-_.', 10) },
  { weight: 1, arbitrary: word(MIXED, '-_.', 63) },
  { weight: 1, arbitrary: fc.constantFrom('in', 'notin', 'constructor', 'toString', 'hasOwnProperty') },
);

/** labelKey is a qualified name: an optional DNS subdomain prefix and '/', then a label name. */
export const labelKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: labelName },
  { weight: 1, arbitrary: fc.tuple(dnsSubdomain(60), labelName).map(([prefix, name]) => `${prefix}/${name}`) },
);

/** labelValue is a valid label value: '' or a label name. */
export const labelValue: fc.Arbitrary<string> = fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 5, arbitrary: labelName });

/** labelSet is a label map over a small key space, so selectors and labels often meet. */
export function labelSet(keys: readonly string[]): fc.Arbitrary<Record<string, string>> {
  return fc.dictionary(fc.constantFrom(...keys), labelValue, { maxKeys: keys.length });
}

/**
 * hostileText is text built from the symbols of a grammar mixed with arbitrary Unicode (lone
 * surrogates included), so it reaches deep into a parser more often than plain random strings.
 */
export function hostileText(symbols: readonly string[]): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...symbols) },
    { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '\u00e9', ' ', '\t', '\n', 'x'.repeat(70)) },
  );
  return fc.array(piece, { maxLength: 16 }).map((pieces) => pieces.join(''));
}
