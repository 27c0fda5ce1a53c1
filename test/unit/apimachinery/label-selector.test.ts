import { describe, it, expect } from 'vitest';
import { labelSelectorFromObject, parseLabelSelector } from '../../../src/apimachinery/label-selector.js';
import type { LabelSelectorObject } from '../../../src/apimachinery/label-selector.js';
import type { StringMap } from '../../../src/apimachinery/object-meta.js';
import { numbered } from './numbered.js';
import { thrown } from '../../helpers/thrown.js';

describe('parseLabelSelector matching', () => {
  const cases = numbered<{ name: string; text: string; labels: StringMap | undefined; want: boolean }>([
    { name: 'empty selector matches empty labels', text: '', labels: {}, want: true },
    { name: 'empty selector matches undefined labels', text: '', labels: undefined, want: true },
    { name: 'whitespace-only selector matches everything', text: '  \t ', labels: { a: 'b' }, want: true },
    { name: '= matches equal value', text: 'a=b', labels: { a: 'b' }, want: true },
    { name: '= rejects other value', text: 'a=b', labels: { a: 'c' }, want: false },
    { name: '= rejects absent key', text: 'a=b', labels: {}, want: false },
    { name: '== matches equal value', text: 'a==b', labels: { a: 'b' }, want: true },
    { name: '!= matches other value', text: 'a!=b', labels: { a: 'c' }, want: true },
    { name: '!= rejects equal value', text: 'a!=b', labels: { a: 'b' }, want: false },
    { name: '!= matches absent key', text: 'a!=b', labels: {}, want: true },
    { name: '!= matches undefined labels', text: 'a!=b', labels: undefined, want: true },
    { name: 'in matches a member', text: 'a in (b,c)', labels: { a: 'c' }, want: true },
    { name: 'in rejects a non-member', text: 'a in (b,c)', labels: { a: 'd' }, want: false },
    { name: 'in rejects absent key', text: 'a in (b,c)', labels: {}, want: false },
    { name: 'notin matches a non-member', text: 'a notin (b,c)', labels: { a: 'd' }, want: true },
    { name: 'notin rejects a member', text: 'a notin (b,c)', labels: { a: 'b' }, want: false },
    { name: 'notin matches absent key', text: 'a notin (b,c)', labels: {}, want: true },
    { name: 'exists matches present key with empty value', text: 'a', labels: { a: '' }, want: true },
    { name: 'exists rejects absent key', text: 'a', labels: { b: 'a' }, want: false },
    { name: 'exists rejects undefined labels', text: 'a', labels: undefined, want: false },
    { name: '! matches absent key', text: '!a', labels: { b: 'x' }, want: true },
    { name: '! rejects present key', text: '!a', labels: { a: 'x' }, want: false },
    { name: 'requirements are ANDed (all hold)', text: 'a=b,c=d', labels: { a: 'b', c: 'd' }, want: true },
    { name: 'requirements are ANDed (one fails)', text: 'a=b,c=d', labels: { a: 'b' }, want: false },
    { name: 'a= matches the empty value', text: 'a=', labels: { a: '' }, want: true },
    { name: 'a= rejects a non-empty value', text: 'a=', labels: { a: 'x' }, want: false },
    { name: 'in () matches the empty value', text: 'a in ()', labels: { a: '' }, want: true },
    { name: 'prefixed key', text: 'example.com/a=b', labels: { 'example.com/a': 'b' }, want: true },
    { name: 'constructor is not found on the prototype', text: 'constructor', labels: {}, want: false },
    { name: '!constructor holds on plain labels', text: '!constructor', labels: {}, want: true },
    { name: 'whitespace everywhere', text: '  a  in  ( b , c )  ,  ! d ', labels: { a: 'c' }, want: true },
    { name: 'tabs and newlines', text: 'a\t!=\nb', labels: { a: 'c' }, want: true },
    { name: 'in and notin are keys where a key is expected', text: 'in in (notin)', labels: { in: 'notin' }, want: true },
  ]);

  it.each(cases)('case $n: $name', ({ text, labels, want }) => {
    expect(parseLabelSelector(text).matches(labels)).toBe(want);
  });
});

describe('parseLabelSelector requirements', () => {
  const cases = numbered([
    { name: '== folds into =', text: 'a==b', want: [{ key: 'a', operator: '=', values: ['b'] }] },
    { name: 'values are sorted and unique', text: 'a in (c,b,c)', want: [{ key: 'a', operator: 'in', values: ['b', 'c'] }] },
    {
      name: 'requirements are sorted by key',
      text: 'b=1,!c,a',
      want: [
        { key: 'a', operator: 'exists', values: [] },
        { key: 'b', operator: '=', values: ['1'] },
        { key: 'c', operator: '!', values: [] },
      ],
    },
    { name: 'empty slots in a set are the empty value', text: 'a notin (b,,)', want: [{ key: 'a', operator: 'notin', values: ['', 'b'] }] },
    { name: 'empty text has no requirements', text: '', want: [] },
  ]);

  it.each(cases)('case $n: $name', ({ text, want }) => {
    const selector = parseLabelSelector(text);
    expect(selector.requirements).toEqual(want);
    expect(selector.empty).toBe(want.length === 0);
  });

  it('case 6: requirements are frozen', () => {
    const selector = parseLabelSelector('a in (b,c)');
    expect(Object.isFrozen(selector.requirements)).toBe(true);
    expect(Object.isFrozen(selector.requirements[0])).toBe(true);
    expect(Object.isFrozen(selector.requirements[0]?.values)).toBe(true);
  });
});

describe('parseLabelSelector toString', () => {
  const cases = numbered([
    { name: 'empty', text: '  ', want: '' },
    { name: 'every operator', text: '!k, j, h notin (i), e in (g,f), c != d, a == b', want: 'a=b,c!=d,e in (f,g),h notin (i),j,!k' },
    { name: 'empty values', text: 'a=,b in (,c)', want: 'a=,b in (,c)' },
    { name: 'empty set', text: 'a in ()', want: 'a in ()' },
    { name: 'prefixed keys', text: 'x.io/b=1,a.io/c', want: 'a.io/c,x.io/b=1' },
  ]);

  it.each(cases)('case $n: $name gives canonical text that parses back equal', ({ text, want }) => {
    const selector = parseLabelSelector(text);
    expect(selector.toString()).toBe(want);
    const again = parseLabelSelector(selector.toString());
    expect(again.requirements).toEqual(selector.requirements);
    expect(again.toString()).toBe(want);
  });
});

describe('parseLabelSelector errors', () => {
  const long = 'a'.repeat(64);
  const cases = numbered([
    { name: 'unclosed set', text: 'env in (', want: `found end of string, expected: ',', ')' or identifier at position 8 in "env in ("` },
    { name: 'missing operator', text: 'a b', want: `found 'b', expected: in, notin, =, ==, != at position 2 in "a b"` },
    { name: 'trailing comma', text: 'a,', want: `found end of string, expected: identifier after ',' at position 2` },
    { name: 'leading comma', text: ',a', want: `found ',', expected: !, identifier, or 'end of string' at position 0` },
    { name: 'set without parenthesis', text: 'a in b', want: `found 'b', expected: '(' at position 5` },
    { name: 'set without comma', text: 'a in (b c)', want: `found 'c', expected: ',' or ')' at position 8` },
    { name: 'unsupported > operator', text: 'a>1', want: `found '>', expected: in, notin, =, ==, != at position 1` },
    { name: 'lone !', text: '!', want: 'found end of string, expected: identifier at position 1' },
    { name: 'symbol as value', text: 'a=(', want: `found '(', expected: identifier at position 2` },
    { name: '! with an operator', text: '!a=b', want: `found '=', expected: ',' or 'end of string' at position 2` },
    { name: 'two values', text: 'a=b=c', want: `found '=', expected: ',' or 'end of string' at position 3` },
    { name: 'invalid key', text: 'x=1,Foo_=x', want: 'invalid label key "Foo_": name part must consist of alphanumeric' },
    { name: 'invalid key position', text: 'x=1, -a=x', want: 'at position 5 in "x=1, -a=x"' },
    { name: 'key too long', text: `${long}=b`, want: 'name part must be no more than 63 characters at position 0' },
    { name: 'empty key prefix', text: '/a', want: 'prefix part must be non-empty' },
    { name: 'invalid value', text: 'a=b/c', want: 'invalid label value "b/c" for key "a": a valid label must be an empty string' },
    { name: 'invalid value in a set', text: 'a in (b, -c)', want: 'invalid label value "-c" for key "a"' },
    { name: 'value too long', text: `a=${long}`, want: 'must be no more than 63 characters' },
  ]);

  it.each(cases)('case $n: $name', ({ text, want }) => {
    const err = thrown(() => parseLabelSelector(text));
    expect(err.code).toBe('BadRequest');
    expect(err.message).toContain(want);
  });

  it('case 19: errors inside a requirement say so', () => {
    expect(thrown(() => parseLabelSelector('env in (')).message).toMatch(/^unable to parse requirement: /);
  });
});

describe('labelSelectorFromObject', () => {
  const cases = numbered<{ name: string; selector: LabelSelectorObject | undefined; text: string; labels: StringMap; want: boolean }>([
    { name: 'undefined selects everything', selector: undefined, text: '', labels: {}, want: true },
    { name: 'empty object selects everything', selector: {}, text: '', labels: { a: 'b' }, want: true },
    { name: 'empty lists select everything', selector: { matchLabels: {}, matchExpressions: [] }, text: '', labels: {}, want: true },
    { name: 'matchLabels are equalities', selector: { matchLabels: { b: '2', a: '1' } }, text: 'a=1,b=2', labels: { a: '1', b: '2' }, want: true },
    { name: 'matchLabels reject a mismatch', selector: { matchLabels: { a: '1' } }, text: 'a=1', labels: { a: '2' }, want: false },
    {
      name: 'In',
      selector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['y', 'x'] }] },
      text: 'a in (x,y)',
      labels: { a: 'x' },
      want: true,
    },
    {
      name: 'NotIn matches absent key',
      selector: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] },
      text: 'a notin (x)',
      labels: {},
      want: true,
    },
    { name: 'Exists', selector: { matchExpressions: [{ key: 'a', operator: 'Exists' }] }, text: 'a', labels: { a: '' }, want: true },
    {
      name: 'DoesNotExist',
      selector: { matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: [] }] },
      text: '!a',
      labels: { a: '' },
      want: false,
    },
    {
      name: 'labels and expressions combine',
      selector: { matchLabels: { z: '1' }, matchExpressions: [{ key: 'a', operator: 'Exists' }] },
      text: 'a,z=1',
      labels: { z: '1' },
      want: false,
    },
  ]);

  it.each(cases)('case $n: $name', ({ selector, text, labels, want }) => {
    const parsed = labelSelectorFromObject(selector);
    expect(parsed.toString()).toBe(text);
    expect(parsed.empty).toBe(text === '');
    expect(parsed.matches(labels)).toBe(want);
  });

  const errors = numbered<{ name: string; selector: LabelSelectorObject; want: string }>([
    { name: 'unknown operator', selector: { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, want: '"Gt" is not a valid label selector operator' },
    { name: 'In without values', selector: { matchExpressions: [{ key: 'a', operator: 'In' }] }, want: "values set can't be empty" },
    { name: 'NotIn with empty values', selector: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }] }, want: "values set can't be empty" },
    { name: 'Exists with values', selector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, want: 'values set must be empty' },
    { name: 'invalid matchLabels key', selector: { matchLabels: { 'a b': 'x' } }, want: 'invalid label key "a b"' },
    { name: 'invalid matchLabels value', selector: { matchLabels: { a: 'x y' } }, want: 'invalid label value "x y"' },
    { name: 'invalid expression value', selector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['-x'] }] }, want: 'invalid label value "-x"' },
    { name: 'non-string value from JSON', selector: JSON.parse('{"matchLabels":{"a":1}}') as LabelSelectorObject, want: 'values must be strings' },
    { name: 'values not an array', selector: JSON.parse('{"matchExpressions":[{"key":"a","operator":"In","values":"x"}]}') as LabelSelectorObject, want: 'values must be strings' },
  ]);

  it.each(errors)('case $n: $name is Invalid', ({ selector, want }) => {
    const err = thrown(() => labelSelectorFromObject(selector));
    expect(err.code).toBe('Invalid');
    expect(err.message).toContain(want);
  });
});
