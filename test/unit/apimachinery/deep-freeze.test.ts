// deepFreeze freezes a JSON value all the way down (objects in arrays, arrays in objects) and
// leaves a frozen value as it is.

import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../../src/apimachinery/object-meta.js';

describe('deepFreeze', () => {
  it('case 1: every object and array of a nested value is frozen; scalars come back as they are', () => {
    const leaf = { c: [1, 'x', null] };
    const item = { b: leaf };
    const empty: unknown[] = [];
    const value = deepFreeze({ a: [item, empty], d: { e: true } });
    const nested = [value, value.a, item, leaf, leaf.c, empty, value.d];
    expect(nested.every((part) => Object.isFrozen(part))).toBe(true);
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
  });

  it('case 2: a frozen value is not walked: what it holds is left as it was', () => {
    const inner = { open: true };
    const outer = Object.freeze({ inner });
    deepFreeze(outer);
    expect(Object.isFrozen(inner)).toBe(false);
  });
});
