// Properties of label selectors:
//   case 1: printing a selector and parsing it back gives the same requirements (sorted, ==
//           folded into =, value sets sorted and deduplicated) and a canonical text that is a fixed point;
//   case 2: any string either parses or fails with AppError BadRequest naming a position;
//   case 3: matches() agrees with a reference model written from the Kubernetes documentation;
//   case 4: the object form (matchLabels + matchExpressions) agrees with the same model.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelSelectorFromObject, parseLabelSelector } from '../../src/apimachinery/label-selector.js';
import type { LabelSelectorExpression } from '../../src/apimachinery/label-selector.js';
import type { Requirement } from '../../src/apimachinery/selector.js';
import { AppError } from '../../src/errors.js';
import { fcOptions, hostileText, labelKey, labelSet, labelValue } from './arbitraries.js';

type WrittenOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!';

interface WrittenRequirement {
  readonly key: string;
  readonly operator: WrittenOperator;
  readonly values: readonly string[];
}

const KEYS = ['app', 'tier', 'example.com/team', 'in', 'constructor'];

function requirementOver(keys: fc.Arbitrary<string>): fc.Arbitrary<WrittenRequirement> {
  const single = fc.tuple(keys, fc.constantFrom<WrittenOperator>('=', '==', '!='), labelValue)
    .map(([key, operator, value]) => ({ key, operator, values: [value] }));
  const set = fc.tuple(keys, fc.constantFrom<WrittenOperator>('in', 'notin'), fc.array(labelValue, { minLength: 1, maxLength: 4 }))
    .map(([key, operator, values]) => ({ key, operator, values }));
  const bare = fc.tuple(keys, fc.constantFrom<WrittenOperator>('exists', '!')).map(([key, operator]) => ({ key, operator, values: [] }));
  return fc.oneof(single, set, bare);
}

// The writer a user would be: Kubernetes syntax with some harmless whitespace.
function write(requirement: WrittenRequirement, pad: string): string {
  const { key, operator, values } = requirement;
  if (operator === 'exists') return key;
  if (operator === '!') return `!${pad}${key}`;
  if (operator === 'in' || operator === 'notin') return `${key} ${operator}${pad}(${pad}${values.join(`${pad},`)})`;
  return `${key}${pad}${operator}${values[0] ?? ''}`;
}

function expected(requirements: readonly WrittenRequirement[]): Requirement[] {
  const normalized = requirements.map((r) => ({
    key: r.key,
    operator: r.operator === '==' ? '=' : r.operator,
    values: [...new Set(r.values)].sort(),
  }));
  return normalized.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) as Requirement[];
}

// The reference model, straight from the Kubernetes label documentation.
function holds(requirement: WrittenRequirement, labels: Record<string, string>): boolean {
  const present = Object.keys(labels).includes(requirement.key);
  const value = present ? labels[requirement.key] : undefined;
  switch (requirement.operator) {
    case '=':
    case '==':
      return value === requirement.values[0];
    case '!=':
      return value !== requirement.values[0];
    case 'in':
      return present && requirement.values.includes(value ?? '');
    case 'notin':
      return !present || !requirement.values.includes(value ?? '');
    case 'exists':
      return present;
    case '!':
      return !present;
  }
}

const SELECTOR_SYMBOLS = ['a', 'b', 'in', 'notin', '=', '==', '!=', '!', '(', ')', ',', ' ', '<', '>', 'x/y', 'a.b/c', '-', '_', '.', '/'];

describe('label selector properties', () => {
  it('case 1: parse(print(selector)) gives the same requirements, and toString is a fixed point', () => {
    const written = fc.array(requirementOver(labelKey), { maxLength: 5 });
    fc.assert(
      fc.property(written, fc.constantFrom('', ' ', '  '), (requirements, pad) => {
        const text = requirements.map((r) => write(r, pad)).join(`${pad},${pad}`);
        const parsed = parseLabelSelector(text);
        expect(parsed.requirements).toEqual(expected(requirements));
        expect(parsed.empty).toBe(requirements.length === 0);
        const again = parseLabelSelector(parsed.toString());
        expect(again.requirements).toEqual(parsed.requirements);
        expect(again.toString()).toBe(parsed.toString());
      }),
      fcOptions(),
    );
  });

  it('case 2: any string parses or fails with AppError BadRequest at a position', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText(SELECTOR_SYMBOLS), fc.string({ unit: 'binary' })), (text) => {
        try {
          const selector = parseLabelSelector(text);
          // Whatever parsed must print to something that parses to the same thing.
          expect(parseLabelSelector(selector.toString()).toString()).toBe(selector.toString());
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe('BadRequest');
          expect((error as AppError).message).toMatch(/at position \d+/);
        }
      }),
      fcOptions(1000),
    );
  });

  it('case 3: matches() agrees with the reference model', () => {
    const keys = fc.constantFrom(...KEYS);
    fc.assert(
      fc.property(fc.array(requirementOver(keys), { maxLength: 4 }), labelSet(KEYS), (requirements, labels) => {
        const selector = parseLabelSelector(requirements.map((r) => write(r, ' ')).join(','));
        expect(selector.matches(labels)).toBe(requirements.every((r) => holds(r, labels)));
      }),
      fcOptions(),
    );
  });

  it('case 4: the object form agrees with the reference model', () => {
    const keys = fc.constantFrom(...KEYS);
    const objectOperators = { in: 'In', notin: 'NotIn', exists: 'Exists', '!': 'DoesNotExist' } as const;
    const expression = requirementOver(keys).filter((r) => r.operator in objectOperators);
    const matchLabels = fc.dictionary(keys, labelValue, { maxKeys: 3 });
    fc.assert(
      fc.property(matchLabels, fc.array(expression, { maxLength: 3 }), labelSet(KEYS), (exact, expressions, labels) => {
        const matchExpressions: LabelSelectorExpression[] = expressions.map((r) => ({
          key: r.key,
          operator: objectOperators[r.operator as keyof typeof objectOperators],
          values: [...r.values],
        }));
        const selector = labelSelectorFromObject({ matchLabels: exact, matchExpressions });
        const model = [
          ...Object.entries(exact).map(([key, value]): WrittenRequirement => ({ key, operator: '=', values: [value] })),
          ...expressions,
        ];
        expect(selector.matches(labels)).toBe(model.every((r) => holds(r, labels)));
      }),
      fcOptions(),
    );
  });
});
