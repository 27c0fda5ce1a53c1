// A load from a backend indexes many objects at once (IndexBuckets.gather + addGathered, through
// ObjectTable.putAll): what it builds must equal what one put per object builds.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { IndexBuckets } from '../../../src/store/index-buckets.js';
import { ObjectTable } from '../../../src/store/object-table.js';

function obj(name: string, values: string[], namespace = 'ns'): KubeObject {
  return { metadata: { name, namespace, annotations: { values: values.join(',') } } };
}

const byValues = (o: KubeObject): readonly string[] => (o.metadata.annotations?.values ?? '').split(',').filter(Boolean);

function snapshot(index: IndexBuckets): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [value, count] of index.counts()) {
    out[value] = index.objects(value).map((o) => o.metadata.name ?? '').sort();
    expect(count, `count of ${value}`).toBe(out[value].length);
  }
  return out;
}

const OBJECTS = [obj('a', ['all', 'x']), obj('b', ['all', 'y', 'y']), obj('c', ['all', 'x', 'only-c']), obj('d', ['twice', 'twice'])];

describe('IndexBuckets: a load', () => {
  it('case 1: gather + addGathered index exactly as one update per object does', () => {
    const loaded = new IndexBuckets(byValues);
    loaded.addGathered(loaded.gather(OBJECTS), OBJECTS);
    const oneByOne = new IndexBuckets(byValues);
    for (const o of OBJECTS) oneByOne.update(undefined, o, byValues(o));
    expect(snapshot(loaded)).toEqual(snapshot(oneByOne));
    expect(snapshot(loaded)).toEqual({ all: ['a', 'b', 'c'], x: ['a', 'c'], y: ['b'], 'only-c': ['c'], twice: ['d'] });
  });

  it('case 2: objects loaded into a value that already has objects join them', () => {
    const index = new IndexBuckets(byValues);
    const first = obj('first', ['all']);
    index.update(undefined, first, byValues(first));
    index.addGathered(index.gather(OBJECTS), OBJECTS);
    expect(index.objects('all').map((o) => o.metadata.name).sort()).toEqual(['a', 'b', 'c', 'first']);
  });

  it('case 3: removing loaded objects empties their buckets (no value is left counting 0)', () => {
    const index = new IndexBuckets(byValues);
    index.addGathered(index.gather(OBJECTS), OBJECTS);
    for (const o of OBJECTS) index.update(o, undefined, []);
    expect([...index.counts()]).toEqual([]);
  });

  it('case 4: gather leaves the index as it was', () => {
    const index = new IndexBuckets(byValues);
    index.gather(OBJECTS);
    expect([...index.counts()]).toEqual([]);
  });
});

describe('ObjectTable.putAll', () => {
  const ref = { cluster: 'c1', group: 'g', resource: 'things' };

  function tableWith(fn: (o: KubeObject) => readonly string[]): { table: ObjectTable } {
    const table = new ObjectTable();
    table.addIndex(ref.group, ref.resource, 'values', fn);
    return { table };
  }

  it('case 5: stores and indexes every object; a later object with a taken key replaces the earlier one', () => {
    const { table } = tableWith(byValues);
    const clusterTable = table.ensureResource(ref.group, ref.resource).ensureCluster(ref.cluster);
    const replacement = obj('a', ['z']);
    table.putAll(clusterTable, [...OBJECTS, replacement]);
    expect(table.count({ ...ref })).toBe(4);
    expect(table.get({ ...ref, namespace: 'ns', name: 'a' })).toBe(replacement);
    const index = clusterTable.indexes.get('values');
    expect(index && snapshot(index)).toEqual({ all: ['b', 'c'], x: ['c'], y: ['b'], 'only-c': ['c'], twice: ['d'], z: ['a'] });
  });

  it('case 6: an index function that throws leaves the table as it was', () => {
    const { table } = tableWith((o) => {
      if (o.metadata.name === 'c') throw new Error('cannot index c');
      return byValues(o);
    });
    const clusterTable = table.ensureResource(ref.group, ref.resource).ensureCluster(ref.cluster);
    expect(() => table.putAll(clusterTable, OBJECTS)).toThrow('cannot index c');
    expect(table.count({ ...ref })).toBe(0);
    expect(table.get({ ...ref, namespace: 'ns', name: 'a' })).toBeUndefined();
    expect([...clusterTable.namespaces.keys()]).toEqual([]);
  });
});
