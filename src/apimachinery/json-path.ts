// The part of Kubernetes' JSONPath that CRD printer columns use: a path of fields (`.status.phase`,
// `['a.b']`), list indexes (`[0]`, `[-1]`), wildcards (`[*]`, `.*`) and filters comparing a
// relative path with a literal (`[?(@.type=="Ready")]`, `!=`, numbers). A path this subset cannot
// read finds nothing, so its column shows as empty instead of failing the whole table.

import { isPlainObject } from './object-meta.js';

type Step =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'all' }
  | { readonly kind: 'filter'; readonly path: readonly Step[]; readonly equal: boolean; readonly literal: string | number };

const STEP = /^(?:\.([A-Za-z0-9_-]+)|\.\*|\[\*\]|\[(-?\d+)\]|\['([^']*)'\]|\[\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*(==|!=)\s*(?:"([^"]*)"|'([^']*)'|(-?\d+(?:\.\d+)?))\)\])/;

/** parseJsonPath reads a path ("{.a.b}" or ".a.b"), or undefined when it is outside the subset. */
export function parseJsonPath(path: string): readonly Step[] | undefined {
  let rest = path.trim().replace(/^\{(.*)\}$/s, '$1').trim();
  const steps: Step[] = [];
  while (rest !== '') {
    const match = STEP.exec(rest);
    if (match === null) return undefined;
    steps.push(stepOf(match));
    rest = rest.slice(match[0].length);
  }
  return steps;
}

function stepOf(match: RegExpExecArray): Step {
  const [, field, index, quoted, filterPath, operator, double, single, number] = match;
  if (field !== undefined) return { kind: 'field', name: field };
  if (quoted !== undefined) return { kind: 'field', name: quoted };
  if (index !== undefined) return { kind: 'index', index: Number(index) };
  if (filterPath !== undefined) {
    const literal = number !== undefined ? Number(number) : (double ?? single ?? '');
    return { kind: 'filter', path: parseJsonPath(filterPath) ?? [], equal: operator === '==', literal };
  }
  return { kind: 'all' };
}

/** findAll gives every value the path reaches in value, in document order. */
export function findAll(steps: readonly Step[], value: unknown): unknown[] {
  let current: unknown[] = [value];
  for (const step of steps) current = current.flatMap((item) => apply(step, item));
  return current;
}

function apply(step: Step, item: unknown): unknown[] {
  switch (step.kind) {
    case 'field':
      return isPlainObject(item) && step.name in item ? [item[step.name]] : [];
    case 'index': {
      if (!Array.isArray(item)) return [];
      const at = step.index < 0 ? item.length + step.index : step.index;
      return at >= 0 && at < item.length ? [item[at]] : [];
    }
    case 'all':
      return Array.isArray(item) ? item : isPlainObject(item) ? Object.values(item) : [];
    case 'filter':
      return Array.isArray(item) ? item.filter((element) => matches(step, element)) : [];
  }
}

function matches(step: Extract<Step, { kind: 'filter' }>, element: unknown): boolean {
  const [found] = findAll(step.path, element);
  const same = found !== undefined && (typeof step.literal === 'number' ? Number(found) === step.literal : String(found) === step.literal);
  return step.equal ? same : found !== undefined && !same;
}
