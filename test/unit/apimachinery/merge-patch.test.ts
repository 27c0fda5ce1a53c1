import { describe, it, expect } from 'vitest';
import { applyMergePatch } from '../../../src/apimachinery/merge-patch.js';
import { deepFreeze } from '../../../src/apimachinery/object-meta.js';
import { numbered } from './numbered.js';

describe('applyMergePatch RFC 7386 appendix A', () => {
  // The table of RFC 7386 Appendix A, as JSON text so that it reads like the RFC.
  const cases = numbered([
    { original: '{"a":"b"}', patch: '{"a":"c"}', result: '{"a":"c"}' },
    { original: '{"a":"b"}', patch: '{"b":"c"}', result: '{"a":"b","b":"c"}' },
    { original: '{"a":"b"}', patch: '{"a":null}', result: '{}' },
    { original: '{"a":"b","b":"c"}', patch: '{"a":null}', result: '{"b":"c"}' },
    { original: '{"a":["b"]}', patch: '{"a":"c"}', result: '{"a":"c"}' },
    { original: '{"a":"c"}', patch: '{"a":["b"]}', result: '{"a":["b"]}' },
    { original: '{"a":{"b":"c"}}', patch: '{"a":{"b":"d","c":null}}', result: '{"a":{"b":"d"}}' },
    { original: '{"a":[{"b":"c"}]}', patch: '{"a":[1]}', result: '{"a":[1]}' },
    { original: '["a","b"]', patch: '["c","d"]', result: '["c","d"]' },
    { original: '{"a":"b"}', patch: '["c"]', result: '["c"]' },
    { original: '{"a":"foo"}', patch: 'null', result: 'null' },
    { original: '{"a":"foo"}', patch: '"bar"', result: '"bar"' },
    { original: '{"e":null}', patch: '{"a":1}', result: '{"e":null,"a":1}' },
    { original: '[1,2]', patch: '{"a":"b","c":null}', result: '{"a":"b"}' },
    { original: '{}', patch: '{"a":{"bb":{"ccc":null}}}', result: '{"a":{"bb":{}}}' },
  ]);

  it.each(cases)('case $n: $original + $patch = $result', ({ original, patch, result }) => {
    const target = deepFreeze(JSON.parse(original) as unknown);
    expect(applyMergePatch(target, JSON.parse(patch))).toStrictEqual(JSON.parse(result));
    expect(target).toStrictEqual(JSON.parse(original));
  });
});

describe('applyMergePatch behaviour', () => {
  it('case 1: the RFC 7386 section 3 example', () => {
    const target = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    expect(applyMergePatch(deepFreeze(target), patch)).toStrictEqual({
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  it('case 2: a frozen target is not mutated and untouched subtrees are shared', () => {
    const target = deepFreeze({ metadata: { labels: { a: '1' } }, spec: { big: [1, 2, 3] } });
    const result = applyMergePatch(target, { metadata: { labels: { b: '2' } } }) as typeof target;
    expect(result).toStrictEqual({ metadata: { labels: { a: '1', b: '2' } }, spec: { big: [1, 2, 3] } });
    expect(target.metadata.labels).toStrictEqual({ a: '1' });
    expect(result.spec).toBe(target.spec);
  });

  it('case 3: the patch is not mutated', () => {
    const patch = deepFreeze({ a: { b: null, c: { d: null } } });
    expect(applyMergePatch({ a: { b: 1 } }, patch)).toStrictEqual({ a: { c: {} } });
  });

  it('case 4: a __proto__ member is data, not a prototype', () => {
    const patch = JSON.parse('{"__proto__":{"polluted":true}}') as unknown;
    const result = applyMergePatch({}, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('case 5: members named like Object.prototype members are merged as plain members', () => {
    // Compared as JSON: toStrictEqual would read the own `constructor` member as the object's class.
    const result = applyMergePatch({}, { constructor: { a: 1 }, toString: 'x' });
    expect(JSON.stringify(result)).toBe('{"constructor":{"a":1},"toString":"x"}');
  });
});
