// Object uids must look like kube-apiserver's (random version 4 UUIDs) and never repeat, across
// batches of drawn random bytes and across two sources in one process.

import { describe, expect, it } from 'vitest';
import { UidSource } from '../../../src/apimachinery/uid-source.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('UidSource', () => {
  it('case 1: every uid is a version 4 UUID in lower-case text', () => {
    const uids = new UidSource();
    for (let i = 0; i < 2000; i++) expect(uids.next()).toMatch(V4);
  });

  it('case 2: uids do not repeat across batches or across sources', () => {
    const a = new UidSource();
    const b = new UidSource();
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      seen.add(a.next());
      seen.add(b.next());
    }
    expect(seen.size).toBe(10_000);
  });

  it('case 3: a uid handed out is not changed by the ones after it', () => {
    const uids = new UidSource();
    const first = uids.next();
    const copy = `${first}`;
    for (let i = 0; i < 600; i++) uids.next();
    expect(first).toBe(copy);
    expect(first).toMatch(V4);
  });

  it('case 4: the random bits are spread over every hex digit position', () => {
    const uids = new UidSource();
    const digits = Array.from({ length: 36 }, () => new Set<string>());
    for (let i = 0; i < 4000; i++) [...uids.next()].forEach((c, at) => digits[at]?.add(c));
    const spread = digits.map((set) => set.size);
    // Dashes are one character, the version digit is always 4, the variant digit one of 8, 9, a, b.
    expect(spread).toEqual(Array.from({ length: 36 }, (_, at) => ([8, 13, 18, 23, 14].includes(at) ? 1 : at === 19 ? 4 : 16)));
  });
});
