import { describe, expect, it } from 'vitest';
import { LeftOutKeys } from '../../../../src/controllers/replication/left-out-keys.js';

type Step = readonly [key: string, leftOut: boolean, changed: boolean];

describe('LeftOutKeys', () => {
  const cases: Array<{ name: string; steps: readonly Step[]; size: number }> = [
    { name: 'a replicated object is no entry', steps: [['ns/a', false, false]], size: 0 },
    { name: 'an object left out counts once, however often it is noted', steps: [['ns/a', true, true], ['ns/a', true, false]], size: 1 },
    { name: 'an object selected again (or gone) leaves the set', steps: [['ns/a', true, true], ['ns/a', false, true], ['ns/a', false, false]], size: 0 },
    { name: 'keys are independent, namespaced or not', steps: [['x/a', true, true], ['y/a', true, true], ['a', true, true], ['y/a', false, true]], size: 2 },
  ];
  cases.forEach((c, i) => {
    it(`case ${i + 1}: ${c.name}`, () => {
      const keys = new LeftOutKeys();
      for (const [key, leftOut, changed] of c.steps) expect(keys.note(key, leftOut)).toBe(changed);
      expect(keys.size).toBe(c.size);
    });
  });

  it('case 5: clear forgets every key, and a key noted again counts again', () => {
    const keys = new LeftOutKeys();
    keys.note('a', true);
    keys.note('ns/b', true);
    keys.clear();
    expect(keys.size).toBe(0);
    expect(keys.note('a', true)).toBe(true);
    expect(keys.size).toBe(1);
  });
});
