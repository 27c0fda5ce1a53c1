// joinedJsonBytes builds a list answer as bytes: they must be exactly the UTF-8 of the string the
// same parts joined make, whatever the items hold (multi-byte characters, escaped surrogates,
// nothing at all), and fill the buffer to its end.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { joinedJsonBytes } from '../../../src/apimachinery/joined-json-bytes.js';
import { numbered } from './numbered.js';

const CASES = numbered([
  { name: 'no items', open: '{"items":[', items: [] as string[], close: ']}' },
  { name: 'one item', open: '{"kind":"List","items":[', items: ['{"a":1}'], close: ']}' },
  { name: 'several ASCII items', open: '[', items: ['1', '"two"', '{"three":3}'], close: ']' },
  { name: 'multi-byte characters in the head and the items', open: '{"note":"déjà vu","items":[', items: [JSON.stringify({ name: 'naïve' }), JSON.stringify({ e: '🚀 ✓' })], close: ']}' },
  { name: 'an escaped lone surrogate', open: '[', items: [JSON.stringify('\uD800x')], close: ']' },
]);

describe('joinedJsonBytes', () => {
  it.each(CASES)('case $n: $name: the UTF-8 of open + items joined by commas + close', ({ open, items, close }) => {
    const bytes = joinedJsonBytes(open, items, close);
    const text = `${open}${items.join(',')}${close}`;
    expect(bytes.equals(Buffer.from(text))).toBe(true);
    expect(bytes.toString()).toBe(text);
  });

  it('case 6: any strings: the bytes equal the joined string encoded, to the last byte', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), fc.array(fc.string({ unit: 'binary' }), { maxLength: 20 }), fc.string(), (open, items, close) => {
      expect(joinedJsonBytes(open, items, close).equals(Buffer.from(`${open}${items.join(',')}${close}`))).toBe(true);
    }));
  });
});
