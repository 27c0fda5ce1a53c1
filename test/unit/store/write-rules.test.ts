import { describe, expect, it } from 'vitest';
import { flatString } from '../../../src/apimachinery/flat-string.js';
import { rfc3339Seconds, sameExceptVersion, updatedObject } from '../../../src/store/write-rules.js';

describe('write rules', () => {
  it('case 1: rfc3339Seconds drops the milliseconds', () => {
    expect(rfc3339Seconds(new Date('2026-11-29T14:52:30.999Z'))).toBe('2026-11-29T14:52:30Z');
  });

  it('case 2: flatString keeps the text, including non-ASCII', () => {
    for (const s of ['', 'abc', 'ünïcødé-名前', `${'a'.repeat(20)}-${'b'.repeat(20)}`]) expect(flatString(s)).toBe(s);
  });

  it('case 3: sameExceptVersion ignores only resourceVersion', () => {
    const a = { metadata: { name: 'a', resourceVersion: '1', labels: { x: '1' } }, spec: { n: 1 } };
    expect(sameExceptVersion({ ...a, metadata: { ...a.metadata, resourceVersion: '2' } }, a)).toBe(true);
    expect(sameExceptVersion({ ...a, metadata: { ...a.metadata, labels: { x: '2' } } }, a)).toBe(false);
    expect(sameExceptVersion({ ...a, spec: { n: 2 } }, a)).toBe(false);
    expect(sameExceptVersion({ metadata: a.metadata }, a)).toBe(false);
  });

  it('case 4: an update keeps the stored identity and drops undefined fields', () => {
    const stored = { metadata: { name: 'a', namespace: 'n', uid: 'u', resourceVersion: '1', generation: 3, creationTimestamp: 't' }, spec: { n: 1 } };
    const next = updatedObject(stored, { metadata: { name: 'b', namespace: 'm', uid: 'x', labels: undefined }, spec: { n: 1 }, extra: undefined }, '2', false);
    expect(next).toEqual({ metadata: { name: 'a', namespace: 'n', uid: 'u', resourceVersion: '2', generation: 3, creationTimestamp: 't' }, spec: { n: 1 } });
    expect(Object.keys(next)).toEqual(['metadata', 'spec']);
  });
});
