// ChunkedMap behaves as a Map with string keys (get, has, set, delete, size, every entry once)
// before and after it splits into chunks; before the split it keeps a Map's insertion order.
// Case 4 checks the chunk choice itself: keys that differ only in a few characters spread over
// every chunk, or chunks filled in step would double (and rehash) on the same few writes.

import { describe, expect, it } from 'vitest';
import { CHUNKS, ChunkedMap, chunkOf } from '../../../src/apimachinery/chunked-map.js';
import { numbered } from './numbered.js';

describe('ChunkedMap', () => {
  it('case 1: below the split it is one Map, in insertion order', () => {
    const map = new ChunkedMap<number>(4);
    for (const [i, key] of ['d', 'b', 'c', 'a'].entries()) map.set(key, i);
    expect([...map.keys()]).toEqual(['d', 'b', 'c', 'a']);
    expect([...map.values()]).toEqual([0, 1, 2, 3]);
    expect([...map]).toEqual([['d', 0], ['b', 1], ['c', 2], ['a', 3]]);
    expect(map.size).toBe(4);
  });

  it('case 2: past the split every entry is still there once; set, get, has and delete keep working', () => {
    const map = new ChunkedMap<number>(8);
    const keys = Array.from({ length: 200 }, (_, i) => `ns-${i % 7}/object-${i}`);
    keys.forEach((key, i) => map.set(key, i));
    expect(map.size).toBe(200);
    expect(new Set(map.keys())).toEqual(new Set(keys));
    expect([...map].length).toBe(200);
    expect(map.get('ns-3/object-10')).toBe(10);
    map.set('ns-3/object-10', -1);
    expect(map.size).toBe(200);
    expect(map.get('ns-3/object-10')).toBe(-1);
    expect(map.delete('ns-3/object-10')).toBe(true);
    expect(map.delete('ns-3/object-10')).toBe(false);
    expect(map.has('ns-3/object-10')).toBe(false);
    expect(map.size).toBe(199);
    expect([...map.values()].reduce((a, b) => a + b, 0)).toBe((199 * 200) / 2 - 10);
    map.set('', 7);
    expect(map.get('')).toBe(7);
  });

  it('case 3: random sets and deletes across the split leave the same entries as a Map', () => {
    let seed = 11;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const chunked = new ChunkedMap<number>(16);
    const plain = new Map<string, number>();
    for (let step = 0; step < 5000; step++) {
      const key = `k${Math.floor(random() * 120)}`;
      if (random() < 0.6) {
        chunked.set(key, step);
        plain.set(key, step);
      } else {
        expect(chunked.delete(key)).toBe(plain.delete(key));
      }
      expect(chunked.size).toBe(plain.size);
      expect(chunked.get(key)).toBe(plain.get(key));
    }
    expect(new Map(chunked)).toEqual(plain);
  });

  const families = numbered([
    { name: 'generated names (copies of widget-0000000 ...)', key: (i: number) => `v1alpha1.widgets.bench.cachegate.io.widget-${String(i).padStart(7, '0')}` },
    { name: 'one name in many namespaces', key: (i: number) => `team-${i}-prod/kube-root-ca.crt` },
    { name: 'pods of deployments across namespaces', key: (i: number) => `ns-${i % 500}/web-${Math.floor(i / 500).toString(36)}-x7k2p` },
    { name: 'short numbers', key: (i: number) => String(i) },
  ]);

  it.each(families)('case 4.$n: $name spread over every chunk, none past twice its share', ({ key }) => {
    const keys = 200_000;
    const counts = new Array<number>(CHUNKS).fill(0);
    for (let i = 0; i < keys; i++) {
      const chunk = chunkOf(key(i));
      counts[chunk] = (counts[chunk] ?? 0) + 1;
    }
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(Math.max(...counts)).toBeLessThan((2 * keys) / CHUNKS);
  });
});
