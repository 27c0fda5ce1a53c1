// firstInOrder must give exactly what sorting everything and taking the first k would give.

import { describe, expect, it } from 'vitest';
import { firstInOrder } from '../../../src/store/first-in-order.js';

const byNumber = (a: number, b: number): number => a - b;

describe('firstInOrder', () => {
  it.each([
    { n: 1, items: [], k: 3 },
    { n: 2, items: [5, 1, 4], k: 0 },
    { n: 3, items: [5, 1, 4], k: 1 },
    { n: 4, items: [5, 1, 4], k: 3 },
    { n: 5, items: [5, 1, 4], k: 10 },
    { n: 6, items: [3, 3, 1, 3, 2], k: 4 },
    { n: 7, items: Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000), k: 25 },
    { n: 8, items: Array.from({ length: 1000 }, (_, i) => 1000 - i), k: 999 },
  ])('case $n: the $k smallest of $items.length items, in order', ({ items, k }) => {
    expect(firstInOrder(items, k, byNumber)).toEqual([...items].sort(byNumber).slice(0, Math.max(0, k)));
  });

  it('case 9: equal items keep their order', () => {
    const items = [{ k: 1, id: 'a' }, { k: 0, id: 'b' }, { k: 1, id: 'c' }, { k: 1, id: 'd' }];
    expect(firstInOrder(items, 3, (a, b) => a.k - b.k).map((i) => i.id)).toEqual(['b', 'a', 'c']);
  });
});
