// ChunkedSet behaves as a Set (membership, size, insertion order, a re-added value going last)
// while no chunk holds more than its chunk size.

import { describe, expect, it } from 'vitest';
import { ChunkedSet } from '../../../src/apimachinery/chunked-set.js';

function chunkSizes(set: ChunkedSet<number>): number[] {
  return (set as unknown as { chunks: Set<number>[] }).chunks.map((chunk) => chunk.size);
}

describe('ChunkedSet', () => {
  it('case 1: adds fill chunks of at most the chunk size, in insertion order; a duplicate add changes nothing', () => {
    const set = new ChunkedSet<number>([1, 2, 3, 4, 5, 6, 7], 3);
    set.add(4);
    expect(set.size).toBe(7);
    expect(chunkSizes(set)).toEqual([3, 3, 1]);
    expect([...set]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(set.toArray()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(set.has(6)).toBe(true);
    expect(set.has(8)).toBe(false);
  });

  it('case 2: delete takes a value out of its chunk; an emptied chunk goes; a re-added value goes last', () => {
    const set = new ChunkedSet<number>([1, 2, 3, 4, 5, 6, 7], 3);
    expect(set.delete(5)).toBe(true);
    expect(set.delete(5)).toBe(false);
    expect(set.delete(4)).toBe(true);
    expect(set.delete(6)).toBe(true);
    expect(chunkSizes(set)).toEqual([3, 1]);
    set.add(5);
    expect([...set]).toEqual([1, 2, 3, 7, 5]);
    expect(set.size).toBe(5);
  });

  it('case 3: random adds and deletes leave the same members, order and size as a Set', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const chunked = new ChunkedSet<number>([], 4);
    const plain = new Set<number>();
    for (let step = 0; step < 5000; step++) {
      const value = Math.floor(random() * 60);
      if (random() < 0.55) {
        chunked.add(value);
        plain.add(value);
      } else {
        expect(chunked.delete(value)).toBe(plain.delete(value));
      }
      expect(chunked.size).toBe(plain.size);
    }
    expect([...chunked]).toEqual([...plain]);
    expect(chunked.toArray()).toEqual([...plain]);
    expect(Math.max(...chunkSizes(chunked))).toBeLessThanOrEqual(4);
  });

  it('case 4: fromDistinct fills chunks in order and then behaves as a built set', () => {
    const set = ChunkedSet.fromDistinct([1, 2, 3, 4, 5, 6, 7], 3);
    expect(chunkSizes(set)).toEqual([3, 3, 1]);
    expect(set.size).toBe(7);
    expect([...set]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    set.add(2);
    set.add(8);
    expect(set.delete(7)).toBe(true);
    expect(set.toArray()).toEqual([1, 2, 3, 4, 5, 6, 8]);
    expect(ChunkedSet.fromDistinct([], 3).size).toBe(0);
  });

  it('case 5: addFresh appends without searching, and skips only the value added last', () => {
    const set = new ChunkedSet<number>([1, 2], 2);
    set.addFresh(3).addFresh(3);
    expect([...set]).toEqual([1, 2, 3]);
    set.delete(3);
    set.addFresh(3);
    expect([...set]).toEqual([1, 2, 3]);
    expect(chunkSizes(set)).toEqual([2, 1]);
    expect(set.size).toBe(3);
  });
});
