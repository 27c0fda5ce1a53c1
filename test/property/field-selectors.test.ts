// Properties of field selectors:
//   case 1: any value, escaped as Kubernetes escapes it (`\\`, `\,`, `\=`), round-trips through
//           parse, and toString() is a canonical fixed point;
//   case 2: any string parses or fails with AppError BadRequest, never anything else;
//   case 3: matches() agrees with a reference model (an absent name or namespace reads as '').

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFieldSelector } from '../../src/apimachinery/field-selector.js';
import { AppError } from '../../src/errors.js';
import { fcOptions, hostileText } from './arbitraries.js';

type Field = 'metadata.name' | 'metadata.namespace';

interface Term {
  readonly field: Field;
  readonly operator: '=' | '==' | '!=';
  readonly value: string;
}

const value = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('a', 'b', '\\', ',', '=', '!', ' '), maxLength: 8 }),
);
const term: fc.Arbitrary<Term> = fc.record({
  field: fc.constantFrom<Field>('metadata.name', 'metadata.namespace'),
  operator: fc.constantFrom<Term['operator']>('=', '==', '!='),
  value,
});

function write(t: Term): string {
  return `${t.field}${t.operator}${t.value.replace(/[\\,=]/g, (char) => `\\${char}`)}`;
}

const FIELD_SYMBOLS = ['metadata.name', 'metadata.namespace', 'spec.x', '=', '==', '!=', '!', ',', '\\', '\\,', '\\=', 'a', ' '];

describe('field selector properties', () => {
  it('case 1: escaped values round-trip and toString is canonical', () => {
    fc.assert(
      fc.property(fc.array(term, { maxLength: 4 }), (terms) => {
        const parsed = parseFieldSelector(terms.map(write).join(','));
        const got = parsed.requirements.map((r) => `${r.field}|${r.operator}|${r.value}`).sort();
        const want = terms.map((t) => `${t.field}|${t.operator === '!=' ? '!=' : '='}|${t.value}`).sort();
        expect(got).toEqual(want);
        const again = parseFieldSelector(parsed.toString());
        expect(again.toString()).toBe(parsed.toString());
        expect(again.requirements).toEqual(parsed.requirements);
      }),
      fcOptions(),
    );
  });

  it('case 2: any string parses or fails with AppError BadRequest', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText(FIELD_SYMBOLS), fc.string({ unit: 'binary' })), (text) => {
        try {
          parseFieldSelector(text);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe('BadRequest');
        }
      }),
      fcOptions(1000),
    );
  });

  it('case 3: matches() agrees with the reference model', () => {
    const meta = fc.record({ name: fc.constantFrom('a', 'b', ''), namespace: fc.constantFrom('a', 'b', '') }, { requiredKeys: [] });
    const small = fc.record({
      field: fc.constantFrom<Field>('metadata.name', 'metadata.namespace'),
      operator: fc.constantFrom<Term['operator']>('=', '==', '!='),
      value: fc.constantFrom('a', 'b', ''),
    });
    fc.assert(
      fc.property(fc.array(small, { maxLength: 3 }), meta, (terms, object) => {
        const selector = parseFieldSelector(terms.map(write).join(','));
        const model = terms.every((t) => {
          const actual = (t.field === 'metadata.name' ? object.name : object.namespace) ?? '';
          return t.operator === '!=' ? actual !== t.value : actual === t.value;
        });
        expect(selector.matches({ metadata: object })).toBe(model);
      }),
      fcOptions(),
    );
  });
});
