import { describe, it, expect } from 'vitest';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isLabelValue,
  isValidLabelValue,
  isValidPathSegmentName,
} from '../../../src/apimachinery/name-validation.js';
import { numbered } from './numbered.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QNAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const a = (n: number): string => 'a'.repeat(n);

describe('isDNS1123Subdomain', () => {
  const cases = numbered([
    { name: 'single character', value: 'a', want: [] },
    { name: 'dotted', value: 'example.com', want: [] },
    { name: 'dashes and digits', value: '1-a.b-2', want: [] },
    { name: '253 characters', value: a(253), want: [] },
    { name: '254 characters', value: a(254), want: ['must be no more than 253 characters'] },
    { name: 'uppercase', value: 'Example.com', want: [SUBDOMAIN_MSG] },
    { name: 'leading dash', value: '-a', want: [SUBDOMAIN_MSG] },
    { name: 'trailing dash', value: 'a-', want: [SUBDOMAIN_MSG] },
    { name: 'empty', value: '', want: [SUBDOMAIN_MSG] },
    { name: 'double dot', value: 'a..b', want: [SUBDOMAIN_MSG] },
    { name: 'underscore', value: 'a_b', want: [SUBDOMAIN_MSG] },
    { name: 'too long and invalid', value: `${a(253)}_`, want: ['must be no more than 253 characters', SUBDOMAIN_MSG] },
  ]);

  it.each(cases)('case $n: $name', ({ value, want }) => {
    expect(isDNS1123Subdomain(value)).toEqual(want);
  });
});

describe('isDNS1123Label', () => {
  const cases = numbered([
    { name: 'simple', value: 'my-name', want: [] },
    { name: 'leading digit', value: '123-abc', want: [] },
    { name: '63 characters', value: a(63), want: [] },
    { name: '64 characters', value: a(64), want: ['must be no more than 63 characters'] },
    { name: 'dots', value: 'a.b', want: ['must not contain dots'] },
    { name: 'uppercase', value: 'My-name', want: [LABEL_MSG] },
    { name: 'leading dash', value: '-a', want: [LABEL_MSG] },
    { name: 'empty', value: '', want: [LABEL_MSG] },
  ]);

  it.each(cases)('case $n: $name', ({ value, want }) => {
    expect(isDNS1123Label(value)).toEqual(want);
  });
});

describe('isValidPathSegmentName', () => {
  const cases = numbered([
    { name: 'anything else is fine', value: 'Foo_Bar:1', want: [] },
    { name: 'dot', value: '.', want: ["may not be '.'"] },
    { name: 'dot dot', value: '..', want: ["may not be '..'"] },
    { name: 'three dots are fine', value: '...', want: [] },
    { name: 'slash', value: 'a/b', want: ["may not contain '/'"] },
    { name: 'percent', value: 'a%b', want: ["may not contain '%'"] },
    { name: 'slash and percent', value: '/%', want: ["may not contain '/'", "may not contain '%'"] },
  ]);

  it.each(cases)('case $n: $name', ({ value, want }) => {
    expect(isValidPathSegmentName(value)).toEqual(want);
  });
});

describe('isQualifiedName', () => {
  const cases = numbered([
    { name: 'plain name', value: 'app', want: [] },
    { name: 'mixed case with dots and underscores', value: 'My_app.v1', want: [] },
    { name: 'prefixed', value: 'example.com/MyName', want: [] },
    { name: '63-character name part', value: `example.com/${a(63)}`, want: [] },
    { name: '64-character name part', value: a(64), want: ['name part must be no more than 63 characters'] },
    { name: 'leading dash', value: '-app', want: [QNAME_MSG] },
    { name: 'trailing underscore', value: 'app_', want: [QNAME_MSG] },
    { name: 'empty', value: '', want: ['name part must be non-empty', QNAME_MSG] },
    { name: 'empty prefix', value: '/app', want: ['prefix part must be non-empty'] },
    { name: 'empty name after prefix', value: 'example.com/', want: ['name part must be non-empty', QNAME_MSG] },
    { name: 'uppercase prefix', value: 'Example.com/app', want: [`prefix part ${SUBDOMAIN_MSG}`] },
    {
      name: 'two slashes',
      value: 'a/b/c',
      want: [
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    },
  ]);

  it.each(cases)('case $n: $name', ({ value, want }) => {
    expect(isQualifiedName(value)).toEqual(want);
  });
});

describe('isValidLabelValue', () => {
  const cases = numbered([
    { name: 'empty', value: '', want: [] },
    { name: 'mixed', value: 'My_value.1-x', want: [] },
    { name: '63 characters', value: a(63), want: [] },
    { name: '64 characters', value: a(64), want: ['must be no more than 63 characters'] },
    { name: 'leading dash', value: '-a', want: [VALUE_MSG] },
    { name: 'trailing dot', value: 'a.', want: [VALUE_MSG] },
    { name: 'space', value: 'a b', want: [VALUE_MSG] },
    { name: 'slash', value: 'a/b', want: [VALUE_MSG] },
    { name: 'multi-byte characters count in bytes', value: 'é'.repeat(32), want: ['must be no more than 63 characters', VALUE_MSG] },
  ]);

  it.each(cases)('case $n: $name', ({ value, want }) => {
    expect(isValidLabelValue(value)).toEqual(want);
    // The boolean form agrees with the messages on every case.
    expect(isLabelValue(value)).toBe(want.length === 0);
  });
});
