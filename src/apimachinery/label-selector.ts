// Label selectors: the Kubernetes text grammar (`a=b,c!=d,e in (f,g),h notin (i),j,!k`) and the
// object form (metav1.LabelSelector). Parse errors name the offending token and its 0-based
// position, which Kubernetes does not do but makes a long selector in a URL easy to fix.

import { AppError } from '../errors.js';
import { compileLabelSelector } from './compile-label-selector.js';
import { labelValueError, newRequirement } from './label-requirement.js';
import { lexLabelSelector } from './label-selector-lexer.js';
import type { LabelToken } from './label-selector-lexer.js';
import { isQualifiedName } from './name-validation.js';
import type { LabelSelector, Requirement, SelectorOperator } from './selector.js';

/** LabelSelectorExpression is one matchExpressions entry of a metav1.LabelSelector. */
export interface LabelSelectorExpression {
  readonly key: string;
  /** operator is one of In, NotIn, Exists, DoesNotExist; anything else is rejected. */
  readonly operator: string;
  readonly values?: readonly string[];
}

/** LabelSelectorObject is the metav1.LabelSelector shape found in specs and list options. */
export interface LabelSelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly LabelSelectorExpression[];
}

const OBJECT_OPERATORS: Readonly<Record<string, SelectorOperator>> = Object.freeze({
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
});

/** parseLabelSelector parses Kubernetes label selector text; '' selects everything. */
export function parseLabelSelector(text: string): LabelSelector {
  return compileLabelSelector(new LabelSelectorParser(text).parse());
}

/** labelSelectorFromObject converts a metav1.LabelSelector; undefined or empty selects everything. */
export function labelSelectorFromObject(selector: LabelSelectorObject | undefined): LabelSelector {
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) {
    requirements.push(newRequirement(key, '=', [value]));
  }
  for (const expression of selector?.matchExpressions ?? []) {
    const operator = Object.hasOwn(OBJECT_OPERATORS, expression.operator)
      ? OBJECT_OPERATORS[expression.operator]
      : undefined;
    if (operator === undefined) {
      throw new AppError('Invalid', `${JSON.stringify(expression.operator)} is not a valid label selector operator`);
    }
    requirements.push(newRequirement(expression.key, operator, expression.values ?? []));
  }
  return compileLabelSelector(requirements);
}

// A recursive-descent parser over the token list; one instance parses one selector text.
class LabelSelectorParser {
  readonly #text: string;
  readonly #tokens: readonly LabelToken[];
  #index = 0;

  constructor(text: string) {
    this.#text = text;
    this.#tokens = lexLabelSelector(text);
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    let start = this.#peek();
    if (start.kind === 'end') return requirements;
    for (;;) {
      if (start.kind !== 'identifier' && start.kind !== '!') {
        const expected = requirements.length === 0 ? "!, identifier, or 'end of string'" : "identifier after ','";
        throw this.#error(start, expected);
      }
      requirements.push(this.#requirement());
      const separator = this.#next();
      if (separator.kind === 'end') return requirements;
      if (separator.kind !== ',') throw this.#error(separator, "',' or 'end of string'");
      start = this.#peek();
    }
  }

  #requirement(): Requirement {
    const first = this.#next();
    const keyToken = first.kind === '!' ? this.#next() : first;
    if (keyToken.kind !== 'identifier') throw this.#error(keyToken, 'identifier', true);
    const key = this.#key(keyToken);
    if (first.kind === '!') return { key, operator: '!', values: [] };
    const after = this.#peek();
    if (after.kind === 'end' || after.kind === ',') return { key, operator: 'exists', values: [] };
    const operator = this.#operator();
    const values = operator === 'in' || operator === 'notin' ? this.#valueSet(key) : [this.#exactValue(key)];
    return { key, operator, values };
  }

  #key(token: LabelToken): string {
    const errors = isQualifiedName(token.text);
    if (errors.length > 0) {
      throw this.#fail(token, `invalid label key ${JSON.stringify(token.text)}: ${errors.join('; ')}`, true);
    }
    return token.text;
  }

  #value(key: string, token: LabelToken): string {
    const message = labelValueError(key, token.text);
    if (message !== undefined) throw this.#fail(token, message, true);
    return token.text;
  }

  #operator(): SelectorOperator {
    // Read as an operator, `in` and `notin` are keywords rather than identifiers.
    const token = this.#next(false);
    switch (token.kind) {
      case 'in':
      case 'notin':
      case '=':
      case '!=':
        return token.kind;
      case '==':
        return '=';
      default:
        throw this.#error(token, 'in, notin, =, ==, !=', true);
    }
  }

  // `(a,b)`; as in Kubernetes an empty slot (`()`, `(a,)`, `(,a)`) stands for the empty value.
  #valueSet(key: string): string[] {
    const open = this.#next();
    if (open.kind !== '(') throw this.#error(open, "'('", true);
    const values: string[] = [];
    let wantValue = true;
    for (;;) {
      const token = this.#next();
      if (token.kind === 'identifier' && wantValue) {
        values.push(this.#value(key, token));
        wantValue = false;
      } else if (token.kind === ',' || token.kind === ')') {
        if (wantValue) values.push('');
        if (token.kind === ')') return values;
        wantValue = true;
      } else {
        throw this.#error(token, wantValue ? "',', ')' or identifier" : "',' or ')'", true);
      }
    }
  }

  // `a=` (nothing before the next ',' or the end) means the empty value, as in Kubernetes.
  #exactValue(key: string): string {
    const token = this.#peek();
    if (token.kind === 'end' || token.kind === ',') return '';
    this.#next();
    if (token.kind !== 'identifier') throw this.#error(token, 'identifier', true);
    return this.#value(key, token);
  }

  // Where a key or value is expected, the keywords `in` and `notin` are plain identifiers.
  #peek(asIdentifier = true): LabelToken {
    const token = this.#tokens[Math.min(this.#index, this.#tokens.length - 1)];
    if (token === undefined) throw new Error('label selector lexer produced no end token');
    return asIdentifier && (token.kind === 'in' || token.kind === 'notin') ? { ...token, kind: 'identifier' } : token;
  }

  #next(asIdentifier = true): LabelToken {
    const token = this.#peek(asIdentifier);
    this.#index++;
    return token;
  }

  #error(token: LabelToken, expected: string, inRequirement = false): AppError {
    const found = token.kind === 'end' ? 'end of string' : `'${token.text}'`;
    return this.#fail(token, `found ${found}, expected: ${expected}`, inRequirement);
  }

  #fail(token: LabelToken, message: string, inRequirement: boolean): AppError {
    const prefix = inRequirement ? 'unable to parse requirement: ' : '';
    const where = `at position ${token.position} in ${JSON.stringify(this.#text)}`;
    return new AppError('BadRequest', `${prefix}${message} ${where}`);
  }
}
