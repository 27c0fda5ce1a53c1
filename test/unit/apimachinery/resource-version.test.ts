import { describe, it, expect } from 'vitest';
import { AppError } from '../../../src/errors.js';
import {
  compareResourceVersions,
  isNumericResourceVersion,
  parseResourceVersion,
} from '../../../src/apimachinery/resource-version.js';
import { numbered } from './numbered.js';

describe('parseResourceVersion', () => {
  const valid = numbered([
    { name: 'zero', rv: '0', want: 0n },
    { name: 'small', rv: '123', want: 123n },
    { name: 'leading zeros', rv: '00012', want: 12n },
    { name: 'uint64 max', rv: '18446744073709551615', want: 18446744073709551615n },
  ]);

  it.each(valid)('case $n: $name', ({ rv, want }) => {
    expect(parseResourceVersion(rv)).toBe(want);
    expect(isNumericResourceVersion(rv)).toBe(true);
  });

  const invalid = numbered([
    { name: 'empty', rv: '' },
    { name: 'letters', rv: 'abc' },
    { name: 'negative', rv: '-1' },
    { name: 'decimal point', rv: '1.5' },
    { name: 'whitespace', rv: ' 1' },
    { name: 'plus sign', rv: '+1' },
    { name: 'beyond uint64', rv: '18446744073709551616' },
    { name: 'huge', rv: '9'.repeat(1000) },
  ]);

  it.each(invalid)('case $n: $name is BadRequest', ({ rv }) => {
    expect(isNumericResourceVersion(rv)).toBe(false);
    const want = { code: 'BadRequest', message: `invalid resource version ${JSON.stringify(rv)}` };
    expect(() => parseResourceVersion(rv)).toThrow(AppError);
    expect(() => parseResourceVersion(rv)).toThrow(expect.objectContaining(want));
  });
});

describe('compareResourceVersions', () => {
  const cases = numbered([
    { name: 'less', a: '9', b: '10', want: -1 },
    { name: 'equal', a: '10', b: '10', want: 0 },
    { name: 'equal with leading zero', a: '010', b: '10', want: 0 },
    { name: 'greater', a: '18446744073709551615', b: '18446744073709551614', want: 1 },
  ]);

  it.each(cases)('case $n: $name', ({ a, b, want }) => {
    expect(compareResourceVersions(a, b)).toBe(want);
  });

  it.each(numbered([{ name: 'left not numeric', a: 'x', b: '1' }, { name: 'right not numeric', a: '1', b: '' }]))(
    'case $n: $name is BadRequest',
    ({ a, b }) => {
      expect(() => compareResourceVersions(a, b)).toThrow(expect.objectContaining({ code: 'BadRequest' }));
    },
  );
});
