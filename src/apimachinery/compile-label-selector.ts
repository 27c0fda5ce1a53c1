// The LabelSelector implementation shared by the text parser and metav1.LabelSelector
// conversion. matches() runs for every object of a list or watch, so it allocates nothing:
// set lookups use a Set built once here, and key presence uses Object.hasOwn (a label named
// "constructor" must not find Object.prototype.constructor).

import { sortedUnique } from './label-requirement.js';
import type { StringMap } from './object-meta.js';
import type { LabelSelector, Requirement, SelectorOperator } from './selector.js';

interface Matcher {
  readonly key: string;
  readonly operator: SelectorOperator;
  readonly value: string;
  readonly values: ReadonlySet<string>;
}

/** compileLabelSelector builds a selector from already validated requirements, sorted by key. */
export function compileLabelSelector(requirements: readonly Requirement[]): LabelSelector {
  return new CompiledLabelSelector(requirements);
}

class CompiledLabelSelector implements LabelSelector {
  readonly requirements: readonly Requirement[];
  readonly empty: boolean;
  readonly #matchers: readonly Matcher[];
  readonly #text: string;

  constructor(requirements: readonly Requirement[]) {
    // Array.prototype.sort is stable, so requirements on one key keep their written order.
    const sorted = [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.requirements = Object.freeze(sorted.map(freezeRequirement));
    this.empty = sorted.length === 0;
    this.#matchers = this.requirements.map(toMatcher);
    this.#text = this.requirements.map(requirementText).join(',');
  }

  matches(labels: StringMap | undefined): boolean {
    const matchers = this.#matchers;
    for (let i = 0; i < matchers.length; i++) {
      const matcher = matchers[i];
      if (matcher !== undefined && !matchOne(matcher, labels)) return false;
    }
    return true;
  }

  toString(): string {
    return this.#text;
  }
}

function matchOne(matcher: Matcher, labels: StringMap | undefined): boolean {
  const key = matcher.key;
  const value = labels !== undefined && Object.hasOwn(labels, key) ? labels[key] : undefined;
  switch (matcher.operator) {
    case 'exists':
      return value !== undefined;
    case '!':
      return value === undefined;
    case '=':
      return value === matcher.value;
    case '!=':
      // Kubernetes: an absent key is "not equal" to anything.
      return value !== matcher.value;
    case 'in':
      return value !== undefined && matcher.values.has(value);
    case 'notin':
      return value === undefined || !matcher.values.has(value);
  }
}

function freezeRequirement(requirement: Requirement): Requirement {
  const values = Object.freeze(sortedUnique(requirement.values));
  return Object.freeze({ key: requirement.key, operator: requirement.operator, values });
}

function toMatcher(requirement: Requirement): Matcher {
  const { key, operator, values } = requirement;
  return { key, operator, value: values[0] ?? '', values: new Set(values) };
}

function requirementText(requirement: Requirement): string {
  const { key, operator, values } = requirement;
  switch (operator) {
    case 'exists':
      return key;
    case '!':
      return `!${key}`;
    case 'in':
    case 'notin':
      return `${key} ${operator} (${values.join(',')})`;
    default:
      return `${key}${operator}${values[0] ?? ''}`;
  }
}
