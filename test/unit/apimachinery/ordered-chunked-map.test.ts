// OrderedChunkedMap behaves as a Map with string keys, insertion order included, before and after
// it splits: each case runs the same operations on a Map and checks that both agree on size,
// every key's value and the order of values.

import { describe, expect, it } from 'vitest';
import { OrderedChunkedMap } from '../../../src/apimachinery/ordered-chunked-map.js';
import { numbered } from './numbered.js';

type Op = readonly ['set', string, number] | readonly ['delete', string];

function replay(ops: readonly Op[], splitAt: number): { map: OrderedChunkedMap<number>; reference: Map<string, number>; deleted: boolean[] } {
  const map = new OrderedChunkedMap<number>(splitAt);
  const reference = new Map<string, number>();
  const deleted: boolean[] = [];
  for (const op of ops) {
    if (op[0] === 'set') {
      map.set(op[1], op[2]);
      reference.set(op[1], op[2]);
    } else {
      deleted.push(map.delete(op[1]));
      expect(deleted[deleted.length - 1]).toBe(reference.delete(op[1]));
    }
  }
  return { map, reference, deleted };
}

function expectSame(map: OrderedChunkedMap<number>, reference: Map<string, number>, keys: Iterable<string>): void {
  expect(map.size).toBe(reference.size);
  expect([...map.values()]).toEqual([...reference.values()]);
  for (const key of keys) expect(map.get(key)).toBe(reference.get(key));
}

const sets = (keys: readonly string[], from = 0): Op[] => keys.map((key, i) => ['set', key, from + i] as const);
const names = (n: number, prefix = 'object-'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(6, '0')}`);

/** random is a small seeded generator (mulberry32), so a failing sequence can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function churn(seed: number, n: number, keyCount: number): Op[] {
  const next = random(seed);
  const ops: Op[] = [];
  for (let i = 0; i < n; i++) {
    const key = `k${Math.floor(next() * keyCount)}`;
    ops.push(next() < 0.35 ? ['delete', key] : ['set', key, i]);
  }
  return ops;
}

describe('OrderedChunkedMap', () => {
  const cases = numbered([
    { name: 'below the split: a Map', splitAt: 8, ops: sets(['d', 'b', 'c', 'a']) },
    { name: 'past the split: every key once, in insertion order', splitAt: 8, ops: sets(names(200)) },
    { name: 'an update keeps the key where it is', splitAt: 8, ops: [...sets(names(50)), ['set', 'object-000003', -1], ['set', 'object-000049', -2]] as Op[] },
    { name: 'a deleted key added again goes to the end', splitAt: 8, ops: [...sets(names(50)), ['delete', 'object-000010'], ['set', 'object-000010', 99]] as Op[] },
    { name: 'deleting the first, the last and a middle key', splitAt: 8, ops: [...sets(names(50)), ['delete', 'object-000000'], ['delete', 'object-000049'], ['delete', 'object-000025'], ['delete', 'missing']] as Op[] },
    { name: 'freed slots are reused by later keys, which still come last', splitAt: 8, ops: [...sets(names(40)), ...names(40).slice(0, 20).map((key) => ['delete', key] as const), ...sets(names(30, 'late-'), 100)] },
    { name: 'emptied and filled again', splitAt: 8, ops: [...sets(names(30)), ...names(30).map((key) => ['delete', key] as const), ...sets(names(12, 'again-'))] },
    { name: 'random churn over 300 keys', splitAt: 16, ops: churn(1, 20_000, 300) },
    { name: 'random churn over 5,000 keys, split at the default size', splitAt: undefined, ops: churn(7, 60_000, 5_000) },
    { name: 'a hundred thousand keys: the links grow many times', splitAt: 16, ops: sets(names(100_000)) },
  ]);

  it.each(cases)('case $n: $name', ({ splitAt, ops }) => {
    const { map, reference } = replay(ops, splitAt ?? 16_384);
    const keys = new Set(ops.map((op) => op[1]));
    expectSame(map, reference, keys);
  });

  it(`case ${cases.length + 1}: a value deleted is never given again, by get or by values`, () => {
    const map = new OrderedChunkedMap<{ id: number }>(4);
    const held = Array.from({ length: 20 }, (_, id) => ({ id }));
    held.forEach((value, i) => map.set(`k${i}`, value));
    for (let i = 0; i < 20; i += 2) map.delete(`k${i}`);
    expect([...map.values()].map((v) => v.id)).toEqual(held.filter((_, i) => i % 2 === 1).map((v) => v.id));
    expect(map.get('k4')).toBeUndefined();
    expect(map.delete('k4')).toBe(false);
  });
});
