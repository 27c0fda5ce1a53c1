import { describe, it, expect } from 'vitest';
import { parseFieldSelector } from '../../../src/apimachinery/field-selector.js';
import { numbered } from './numbered.js';
import { thrown } from '../../helpers/thrown.js';

describe('parseFieldSelector matching', () => {
  const cases = numbered<{ name: string; text: string; meta: { name?: string; namespace?: string }; want: boolean }>([
    { name: 'empty selector matches everything', text: '', meta: { name: 'a' }, want: true },
    { name: '= on name matches', text: 'metadata.name=a', meta: { name: 'a' }, want: true },
    { name: '== on name matches', text: 'metadata.name==a', meta: { name: 'a' }, want: true },
    { name: '= on name rejects another name', text: 'metadata.name=a', meta: { name: 'b' }, want: false },
    { name: '!= on name matches another name', text: 'metadata.name!=a', meta: { name: 'b' }, want: true },
    { name: '!= on name rejects the name', text: 'metadata.name!=a', meta: { name: 'a' }, want: false },
    { name: '!= matches an absent name', text: 'metadata.name!=a', meta: {}, want: true },
    { name: 'namespace= matches cluster-scoped objects', text: 'metadata.namespace=', meta: { name: 'a' }, want: true },
    { name: 'namespace!= rejects cluster-scoped objects', text: 'metadata.namespace!=', meta: { name: 'a' }, want: false },
    { name: 'terms are ANDed (all hold)', text: 'metadata.namespace=ns,metadata.name=a', meta: { name: 'a', namespace: 'ns' }, want: true },
    { name: 'terms are ANDed (one fails)', text: 'metadata.namespace=ns,metadata.name=a', meta: { name: 'a', namespace: 'x' }, want: false },
    { name: 'escaped comma', text: 'metadata.name=a\\,b', meta: { name: 'a,b' }, want: true },
    { name: 'escaped equals', text: 'metadata.name=a\\=b', meta: { name: 'a=b' }, want: true },
    { name: 'escaped backslash', text: 'metadata.name=a\\\\b', meta: { name: 'a\\b' }, want: true },
    { name: 'whitespace around the field name', text: ' metadata.name =a', meta: { name: 'a' }, want: true },
    { name: 'empty terms are skipped', text: ',metadata.name=a,,', meta: { name: 'a' }, want: true },
  ]);

  it.each(cases)('case $n: $name', ({ text, meta, want }) => {
    expect(parseFieldSelector(text).matches({ metadata: meta })).toBe(want);
  });
});

describe('parseFieldSelector requirements and toString', () => {
  const cases = numbered([
    { name: 'empty', text: '', requirements: [], string: '' },
    {
      name: '== folds into = and terms are sorted',
      text: 'metadata.namespace!=x,metadata.name==y',
      requirements: [
        { field: 'metadata.name', operator: '=', value: 'y' },
        { field: 'metadata.namespace', operator: '!=', value: 'x' },
      ],
      string: 'metadata.name=y,metadata.namespace!=x',
    },
    {
      name: 'values are unescaped, and escaped again by toString',
      text: 'metadata.name=a\\,b\\=c\\\\d',
      requirements: [{ field: 'metadata.name', operator: '=', value: 'a,b=c\\d' }],
      string: 'metadata.name=a\\,b\\=c\\\\d',
    },
  ]);

  it.each(cases)('case $n: $name', ({ text, requirements, string }) => {
    const selector = parseFieldSelector(text);
    expect(selector.requirements).toEqual(requirements);
    expect(selector.empty).toBe(requirements.length === 0);
    expect(selector.toString()).toBe(string);
    expect(parseFieldSelector(selector.toString()).requirements).toEqual(selector.requirements);
  });
});

describe('parseFieldSelector errors', () => {
  const cases = numbered([
    { name: 'unsupported field', text: 'spec.nodeName=x', want: 'field label not supported: spec.nodeName' },
    { name: 'unsupported field with !=', text: 'metadata.name=a,status.phase!=Running', want: 'field label not supported: status.phase' },
    { name: 'label-like field', text: 'metadata.labels=x', want: 'field label not supported: metadata.labels' },
    {
      name: 'term without operator',
      text: 'metadata.name',
      want: `invalid field selector: found 'metadata.name', expected: field=value, field==value or field!=value at position 0 in "metadata.name"`,
    },
    { name: 'missing field name', text: 'metadata.name=a,=b', want: `found '=', expected: field name at position 16` },
    { name: 'missing field name before !=', text: '!=b', want: `found '!=', expected: field name at position 0` },
    { name: 'unescaped = in value', text: 'metadata.name=a=b', want: `found unescaped '=' in value, expected: '\\=' at position 15` },
    { name: 'invalid escape', text: 'metadata.name=a\\x', want: `invalid escape sequence '\\x' in value at position 15` },
    { name: 'trailing backslash', text: 'metadata.name=a\\', want: `invalid escape sequence '\\' in value at position 15` },
  ]);

  it.each(cases)('case $n: $name is BadRequest', ({ text, want }) => {
    const err = thrown(() => parseFieldSelector(text));
    expect(err.code).toBe('BadRequest');
    expect(err.message).toContain(want);
  });
});

describe('parseFieldSelector with a resource\'s own fields (an Event\'s)', () => {
  const EVENT_FIELDS = ['involvedObject.name', 'involvedObject.kind', 'reason'];
  const event = { metadata: { name: 'e1', namespace: 'default' }, involvedObject: { kind: 'ClusterCachedResource', name: 'instances' }, reason: 'Ready', count: 3 };
  const cases = numbered<{ name: string; text: string; want: boolean }>([
    { name: 'a nested field matches', text: 'involvedObject.name=instances,involvedObject.kind=ClusterCachedResource', want: true },
    { name: 'a nested field rejects another value', text: 'involvedObject.name=other', want: false },
    { name: 'a top-level field with != and metadata together', text: 'reason!=Failed,metadata.namespace=default', want: true },
  ]);

  it.each(cases)('case $n: $name', ({ text, want }) => {
    expect(parseFieldSelector(text, EVENT_FIELDS).matches(event)).toBe(want);
  });

  it(`case ${cases.length + 1}: a field the resource does not have is refused, as for any resource without it`, () => {
    expect(thrown(() => parseFieldSelector('involvedObject.uid=x', EVENT_FIELDS))).toMatchObject({ code: 'BadRequest', message: 'field label not supported: involvedObject.uid' });
    expect(thrown(() => parseFieldSelector('involvedObject.name=x'))).toMatchObject({ code: 'BadRequest' });
  });
});
