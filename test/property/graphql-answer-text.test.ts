// Properties of the JSON text of data-only GraphQL answers (src/graphql/answer-text.ts):
//   case 1: for any JSON-like data, with some subtrees deeply frozen (as the store's objects are),
//           undefined properties, holes and dates, the text equals JSON.stringify({ data });
//   case 2: a frozen object's text comes from the shared cache, so a second answer holding the same
//           object reuses the text REST made of it;
//   case 3: only an answer whose one key is data (an object or null) is rendered here.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonText } from '../../src/apimachinery/json-text.js';
import type { KubeObject } from '../../src/apimachinery/object-meta.js';
import { answerText, dataOnlyAnswer } from '../../src/graphql/answer-text.js';
import { fcOptions } from './arbitraries.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

// JSON values, plus what JSON.stringify treats specially: undefined (left out, or null in a list) and dates.
const leaf = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.date({ noInvalidDate: true }));
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('list'), tie('object'), tie('frozen')),
  list: fc.array(tie('tree'), { maxLength: 5 }),
  object: fc.dictionary(fc.string(), tie('tree'), { maxKeys: 5 }),
  frozen: fc.dictionary(fc.string(), tie('tree'), { maxKeys: 5 }).map(deepFreeze),
}));

describe('GraphQL answer text', () => {
  it('case 1: equals JSON.stringify of the answer for any data', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), tree, { maxKeys: 4 }), (data) => {
      expect(answerText(data, new JsonText())).toBe(JSON.stringify({ data }));
    }), fcOptions());
    expect(answerText(null, new JsonText())).toBe('{"data":null}');
  });

  it('case 2: a frozen object is serialised once for every answer and REST response that sends it', () => {
    const json = new JsonText();
    const object = deepFreeze({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } }) as KubeObject;
    const first = json.of(object);
    const answer = answerText({ object }, json);
    expect(answer).toBe(`{"data":{"object":${first}}}`);
    // The cache is keyed by identity: a copy with other content under the same object would show here.
    const cached = { of: (obj: KubeObject) => (obj === object ? 'CACHED' : json.of(obj)) } as JsonText;
    expect(answerText({ object, list: [object] }, cached)).toBe('{"data":{"object":CACHED,"list":[CACHED]}}');
  });

  it.each([
    { case: 1, payload: { data: { a: 1 } }, expected: { a: 1 } },
    { case: 2, payload: { data: null }, expected: null },
    { case: 3, payload: { data: { a: 1 }, errors: [{ message: 'x' }] }, expected: undefined },
    { case: 4, payload: { data: { a: 1 }, extensions: {} }, expected: undefined },
    { case: 5, payload: [{ data: { a: 1 } }], expected: undefined },
    { case: 6, payload: { errors: [{ message: 'x' }] }, expected: undefined },
    { case: 7, payload: 'text', expected: undefined },
  ])('case 3.$case: dataOnlyAnswer', ({ payload, expected }) => {
    expect(dataOnlyAnswer(payload)).toEqual(expected);
  });
});
