// Properties of the JSON depth bound (found by the HTTP fuzz test: a stored
// object nested 5000 levels deep made every list of its resource fail with a stack overflow):
//   case 1: jsonDepthExceeds agrees with a recursive reference depth for any JSON value;
//   case 2: it checks values far deeper than the stack allows recursion, without throwing.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds } from '../../src/apimachinery/json-depth.js';
import { fcOptions } from './arbitraries.js';

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

describe('JSON depth bound', () => {
  it('case 1: jsonDepthExceeds agrees with the recursive reference', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (value, max) => {
        expect(jsonDepthExceeds(value, max)).toBe(depthOf(value) > max);
      }),
      fcOptions(),
    );
  });

  it('case 2: a value 200 000 levels deep is measured without a stack overflow', () => {
    expect(jsonDepthExceeds(nested(200_000))).toBe(true);
    expect(jsonDepthExceeds(nested(500))).toBe(false);
    expect(jsonDepthExceeds(nested(501))).toBe(true);
  });
});
