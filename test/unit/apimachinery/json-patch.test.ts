import { describe, it, expect } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { applyJsonPatch } from '../../../src/apimachinery/json-patch.js';
import { deepFreeze } from '../../../src/apimachinery/object-meta.js';
import { numbered } from './numbered.js';
import { thrown } from '../../helpers/thrown.js';

describe('applyJsonPatch RFC 6902 appendix A', () => {
  const cases = numbered([
    { name: 'A.1 adding an object member', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/baz","value":"qux"}]', result: '{"baz":"qux","foo":"bar"}' },
    { name: 'A.2 adding an array element', doc: '{"foo":["bar","baz"]}', patch: '[{"op":"add","path":"/foo/1","value":"qux"}]', result: '{"foo":["bar","qux","baz"]}' },
    { name: 'A.3 removing an object member', doc: '{"baz":"qux","foo":"bar"}', patch: '[{"op":"remove","path":"/baz"}]', result: '{"foo":"bar"}' },
    { name: 'A.4 removing an array element', doc: '{"foo":["bar","qux","baz"]}', patch: '[{"op":"remove","path":"/foo/1"}]', result: '{"foo":["bar","baz"]}' },
    { name: 'A.5 replacing a value', doc: '{"baz":"qux","foo":"bar"}', patch: '[{"op":"replace","path":"/baz","value":"boo"}]', result: '{"baz":"boo","foo":"bar"}' },
    {
      name: 'A.6 moving a value',
      doc: '{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}',
      patch: '[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]',
      result: '{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}',
    },
    {
      name: 'A.7 moving an array element',
      doc: '{"foo":["all","grass","cows","eat"]}',
      patch: '[{"op":"move","from":"/foo/1","path":"/foo/3"}]',
      result: '{"foo":["all","cows","eat","grass"]}',
    },
    {
      name: 'A.8 testing a value: success',
      doc: '{"baz":"qux","foo":["a",2,"c"]}',
      patch: '[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]',
      result: '{"baz":"qux","foo":["a",2,"c"]}',
    },
    {
      name: 'A.10 adding a nested member object',
      doc: '{"foo":"bar"}',
      patch: '[{"op":"add","path":"/child","value":{"grandchild":{}}}]',
      result: '{"foo":"bar","child":{"grandchild":{}}}',
    },
    {
      name: 'A.11 ignoring unrecognized elements',
      doc: '{"foo":"bar"}',
      patch: '[{"op":"add","path":"/baz","value":"qux","xyz":123}]',
      result: '{"foo":"bar","baz":"qux"}',
    },
    { name: 'A.14 ~ escape ordering', doc: '{"/":9,"~1":10}', patch: '[{"op":"test","path":"/~01","value":10}]', result: '{"/":9,"~1":10}' },
    {
      name: 'A.16 adding an array value',
      doc: '{"foo":["bar"]}',
      patch: '[{"op":"add","path":"/foo/-","value":["abc","def"]}]',
      result: '{"foo":["bar",["abc","def"]]}',
    },
  ]);

  it.each(cases)('case $n: $name', ({ doc, patch, result }) => {
    const input = deepFreeze(JSON.parse(doc) as unknown);
    expect(applyJsonPatch(input, JSON.parse(patch))).toStrictEqual(JSON.parse(result));
    expect(input).toStrictEqual(JSON.parse(doc));
  });

  const failures = numbered([
    { name: 'A.9 testing a value: error', doc: '{"baz":"qux"}', patch: '[{"op":"test","path":"/baz","value":"bar"}]', want: 'JSON patch operation 0 (test at "/baz"): test failed' },
    { name: 'A.12 adding to a nonexistent target', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/baz/bat","value":"qux"}]', want: 'no value at "/baz"' },
    // JSON.parse keeps the last of the duplicate "op" members, leaving a remove of a missing member.
    { name: 'A.13 invalid JSON patch document', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/baz","value":"qux","op":"remove"}]', want: 'no member "baz"' },
    { name: 'A.15 comparing strings and numbers', doc: '{"/":9,"~1":10}', patch: '[{"op":"test","path":"/~01","value":"10"}]', want: 'test failed' },
  ]);

  it.each(failures)('case $n: $name is Invalid', ({ doc, patch, want }) => {
    const err = thrown(() => applyJsonPatch(deepFreeze(JSON.parse(doc) as unknown), JSON.parse(patch)));
    expect(err.code).toBe('Invalid');
    expect(err.message).toContain(want);
  });
});

describe('applyJsonPatch further operations', () => {
  const cases = numbered([
    { name: 'copy an object', doc: { a: { b: 1 } }, ops: [{ op: 'copy', from: '/a', path: '/c' }], want: { a: { b: 1 }, c: { b: 1 } } },
    { name: 'copy into an array', doc: { a: [1, 2] }, ops: [{ op: 'copy', from: '/a/1', path: '/a/0' }], want: { a: [2, 1, 2] } },
    { name: 'add replaces an existing member', doc: { a: 1 }, ops: [{ op: 'add', path: '/a', value: 2 }], want: { a: 2 } },
    { name: 'add at the end index of an array', doc: { a: [1] }, ops: [{ op: 'add', path: '/a/1', value: 2 }], want: { a: [1, 2] } },
    { name: 'add a null value', doc: {}, ops: [{ op: 'add', path: '/a', value: null }], want: { a: null } },
    { name: 'add replaces the root', doc: { a: 1 }, ops: [{ op: 'add', path: '', value: [1] }], want: [1] },
    { name: 'replace the root', doc: { a: 1 }, ops: [{ op: 'replace', path: '', value: 'x' }], want: 'x' },
    { name: 'replace an array element', doc: [1, 2, 3], ops: [{ op: 'replace', path: '/1', value: 9 }], want: [1, 9, 3] },
    { name: 'move to itself is a no-op', doc: { a: 1 }, ops: [{ op: 'move', from: '/a', path: '/a' }], want: { a: 1 } },
    { name: 'key with a slash', doc: {}, ops: [{ op: 'add', path: '/a~1b', value: 1 }], want: { 'a/b': 1 } },
    { name: 'empty key', doc: {}, ops: [{ op: 'add', path: '/', value: 1 }], want: { '': 1 } },
    {
      name: 'operations apply in order',
      doc: { a: [] },
      ops: [
        { op: 'add', path: '/a/-', value: 1 },
        { op: 'add', path: '/a/-', value: 2 },
        { op: 'remove', path: '/a/0' },
        { op: 'test', path: '/a', value: [2] },
      ],
      want: { a: [2] },
    },
    { name: 'test deep equality ignores key order', doc: { a: { x: 1, y: 2 } }, ops: [{ op: 'test', path: '/a', value: { y: 2, x: 1 } }], want: { a: { x: 1, y: 2 } } },
    { name: 'an empty patch changes nothing', doc: { a: 1 }, ops: [], want: { a: 1 } },
  ]);

  it.each(cases)('case $n: $name', ({ doc, ops, want }) => {
    expect(applyJsonPatch(deepFreeze(doc), ops)).toStrictEqual(want);
  });

  it('case 15: a frozen input is not mutated and untouched subtrees are shared', () => {
    const doc = deepFreeze({ metadata: { labels: { a: '1' } }, spec: { list: [1, 2] } });
    const result = applyJsonPatch(doc, [
      { op: 'add', path: '/metadata/labels/b', value: '2' },
      { op: 'remove', path: '/metadata/labels/a' },
    ]) as typeof doc;
    expect(result).toStrictEqual({ metadata: { labels: { b: '2' } }, spec: { list: [1, 2] } });
    expect(doc).toStrictEqual({ metadata: { labels: { a: '1' } }, spec: { list: [1, 2] } });
    expect(result.spec).toBe(doc.spec);
  });

  it('case 16: a failing later operation leaves the input untouched', () => {
    const doc = deepFreeze({ a: 1 });
    expect(() => applyJsonPatch(doc, [{ op: 'remove', path: '/a' }, { op: 'test', path: '/a', value: 1 }])).toThrow(AppError);
    expect(doc).toStrictEqual({ a: 1 });
  });

  it('case 17: a __proto__ member is added as data', () => {
    const result = applyJsonPatch({}, JSON.parse('[{"op":"add","path":"/__proto__","value":{"x":1}}]')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
  });
});

describe('applyJsonPatch operations that do not apply', () => {
  const cases = numbered([
    { name: 'remove a missing member', doc: { a: 1 }, ops: [{ op: 'remove', path: '/b' }], want: 'JSON patch operation 0 (remove at "/b"): there is no member "b" to remove' },
    { name: 'remove through a missing parent', doc: {}, ops: [{ op: 'remove', path: '/a/b' }], want: 'no value at "/a"' },
    { name: 'remove the root', doc: {}, ops: [{ op: 'remove', path: '' }], want: 'the whole document cannot be removed' },
    { name: 'replace a missing member', doc: { a: 1 }, ops: [{ op: 'test', path: '/a', value: 1 }, { op: 'replace', path: '/b', value: 1 }], want: 'JSON patch operation 1 (replace at "/b"): no value at "/b"' },
    { name: 'add beyond the end of an array', doc: { a: [1] }, ops: [{ op: 'add', path: '/a/2', value: 1 }], want: 'index 2 is out of bounds for an array of 1' },
    { name: 'remove beyond the end of an array', doc: { a: [1] }, ops: [{ op: 'remove', path: '/a/1' }], want: 'index 1 is out of bounds' },
    { name: 'index with a leading zero', doc: { a: [1, 2] }, ops: [{ op: 'replace', path: '/a/01', value: 1 }], want: '"01" is not a valid index' },
    { name: '- outside add', doc: { a: [1] }, ops: [{ op: 'replace', path: '/a/-', value: 1 }], want: '"-" is not a valid index' },
    { name: 'negative index', doc: { a: [1] }, ops: [{ op: 'add', path: '/a/-1', value: 1 }], want: '"-1" is not a valid index' },
    { name: 'move into its own child', doc: { a: { b: {} } }, ops: [{ op: 'move', from: '/a', path: '/a/b/c' }], want: 'JSON patch operation 0 (move from "/a" at "/a/b/c"): a value cannot be moved into one of its own children' },
    { name: 'move from a missing member', doc: {}, ops: [{ op: 'move', from: '/x', path: '/y' }], want: 'no member "x"' },
    { name: 'copy from a missing member', doc: {}, ops: [{ op: 'copy', from: '/x', path: '/y' }], want: 'no value at "/x"' },
    { name: 'add under a scalar', doc: { a: 1 }, ops: [{ op: 'add', path: '/a/b', value: 1 }], want: 'the parent of the target is not an object or array' },
    { name: 'test a missing member', doc: {}, ops: [{ op: 'test', path: '/a', value: null }], want: 'no value at "/a"' },
    { name: 'inherited members do not exist', doc: {}, ops: [{ op: 'test', path: '/constructor', value: {} }], want: 'no value at "/constructor"' },
  ]);

  it.each(cases)('case $n: $name is Invalid', ({ doc, ops, want }) => {
    const err = thrown(() => applyJsonPatch(deepFreeze(doc), ops));
    expect(err.code).toBe('Invalid');
    expect(err.message).toContain(want);
  });
});

describe('applyJsonPatch malformed documents', () => {
  const cases = numbered<{ name: string; ops: unknown; want: string }>([
    { name: 'not an array', ops: { op: 'add', path: '/a', value: 1 }, want: 'a JSON patch must be an array of operations' },
    { name: 'null', ops: null, want: 'must be an array' },
    { name: 'operation not an object', ops: ['add'], want: 'JSON patch operation 0 must be an object' },
    { name: 'unknown op', ops: [{ op: 'merge', path: '/a' }], want: 'JSON patch operation 0 has unknown op "merge"' },
    { name: 'missing op', ops: [{ path: '/a' }], want: 'has unknown op null' },
    { name: 'missing path', ops: [{ op: 'remove' }], want: 'JSON patch operation 0 (remove) has no "path" string' },
    { name: 'path not a string', ops: [{ op: 'remove', path: 1 }], want: 'has no "path" string' },
    { name: 'path without leading slash', ops: [{ op: 'remove', path: 'a' }], want: `invalid JSON pointer "a": must be empty or start with '/'` },
    { name: 'bad ~ escape', ops: [{ op: 'remove', path: '/a~2' }], want: 'invalid JSON pointer "/a~2": bad escape at position 2' },
    { name: 'trailing ~', ops: [{ op: 'remove', path: '/a~' }], want: 'bad escape' },
    { name: 'add without value', ops: [{ op: 'add', path: '/a' }], want: 'JSON patch operation 0 (add "/a") has no value' },
    { name: 'test without value', ops: [{ op: 'remove', path: '/a' }, { op: 'test', path: '/a' }], want: 'JSON patch operation 1 (test "/a") has no value' },
    { name: 'move without from', ops: [{ op: 'move', path: '/a' }], want: 'JSON patch operation 0 (move) has no "from" string' },
  ]);

  it.each(cases)('case $n: $name is BadRequest', ({ ops, want }) => {
    const err = thrown(() => applyJsonPatch({ a: 1 }, ops));
    expect(err.code).toBe('BadRequest');
    expect(err.message).toContain(want);
  });
});
