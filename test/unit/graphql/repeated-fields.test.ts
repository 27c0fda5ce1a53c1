// repeatedFieldsError: a response name selected more than the limit in one selection set, counted
// as graphql-js merges fields (inline fragments and each spread fragment once), is refused before
// validation compares the copies pairwise.

import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { repeatedFieldsError } from '../../../src/graphql/repeated-fields.js';

const copies = (n: number, text: string) => Array.from({ length: n }, () => text).join(' ');

describe('repeatedFieldsError', () => {
  it.each([
    ['case 1: three copies pass', `{ ${copies(3, 'a { b }')} }`, undefined],
    ['case 2: four copies are refused', `{ ${copies(4, 'a { b }')} }`, 'a'],
    ['case 3: aliases are response names: four aliased copies under different names pass', '{ x: a y: a z: a w: a }', undefined],
    ['case 4: the same alias four times is refused', `{ ${copies(4, 'x: a')} }`, 'x'],
    ['case 5: copies in inline fragments count in the parent set', `{ a ${copies(3, '... on Q { a }')} }`, 'a'],
    ['case 6: copies in spread fragments count in the parent set', '{ a ...F ...G ...H } fragment F on Q { a } fragment G on Q { a } fragment H on Q { a }', 'a'],
    ['case 7: one fragment spread twice counts once', '{ a a ...F ...F } fragment F on Q { a }', undefined],
    ['case 8: nested sets are counted on their own', `{ a { ${copies(4, 'b')} } }`, 'b'],
    ['case 9: a fragment cycle does not loop', '{ ...F } fragment F on Q { a ...G } fragment G on Q { a ...F }', undefined],
    ['case 10: a fragment\'s own set is checked', `{ ...F } fragment F on Q { ${copies(4, 'a')} }`, 'a'],
  ])('%s', (_name, source, field) => {
    const error = repeatedFieldsError(parse(source), 3);
    expect(error?.extensions['field']).toBe(field);
    if (field !== undefined) expect(error?.extensions['code']).toBe('QUERY_TOO_MANY_REPEATED_FIELDS');
  });
});
