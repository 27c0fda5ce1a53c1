import { describe, expect, it } from 'vitest';
import { COPIED, KeyMembership, SELECTED } from '../../../../src/controllers/replication/key-membership.js';

type Step = readonly [key: string, flag: typeof SELECTED | typeof COPIED, on: boolean, changed: boolean];

describe('KeyMembership', () => {
  const cases: Array<{ name: string; steps: readonly Step[]; selected: number; copied: number; copiedKeys: string[] }> = [
    { name: 'a selected key with a copy counts once in each', steps: [['ns/a', SELECTED, true, true], ['ns/a', COPIED, true, true]], selected: 1, copied: 1, copiedKeys: ['ns/a'] },
    { name: 'setting a bit twice changes nothing the second time', steps: [['ns/a', SELECTED, true, true], ['ns/a', SELECTED, true, false]], selected: 1, copied: 0, copiedKeys: [] },
    { name: 'clearing a bit that is not set changes nothing', steps: [['ns/a', COPIED, false, false]], selected: 0, copied: 0, copiedKeys: [] },
    { name: 'an unselected object whose copy remains still counts as copied', steps: [['a', SELECTED, true, true], ['a', COPIED, true, true], ['a', SELECTED, false, true]], selected: 0, copied: 1, copiedKeys: ['a'] },
    { name: 'keys are independent', steps: [['x/a', SELECTED, true, true], ['y/a', COPIED, true, true], ['x/a', COPIED, true, true], ['y/a', COPIED, false, true]], selected: 1, copied: 1, copiedKeys: ['x/a'] },
  ];
  cases.forEach((c, i) => {
    it(`case ${i + 1}: ${c.name}`, () => {
      const m = new KeyMembership();
      for (const [key, flag, on, changed] of c.steps) expect(m.mark(key, flag, on)).toBe(changed);
      expect([m.selected, m.copied]).toEqual([c.selected, c.copied]);
      expect(m.copiedKeys().sort()).toEqual(c.copiedKeys);
    });
  });

  it('case 6: clearSelected drops every SELECTED bit and keeps COPIED ones', () => {
    const m = new KeyMembership();
    m.mark('a', SELECTED, true);
    m.mark('b', SELECTED, true);
    m.mark('b', COPIED, true);
    m.clearSelected();
    expect([m.selected, m.copied]).toEqual([0, 1]);
    expect(m.copiedKeys()).toEqual(['b']);
    expect(m.mark('a', SELECTED, true)).toBe(true);
    expect(m.selected).toBe(1);
  });
});
