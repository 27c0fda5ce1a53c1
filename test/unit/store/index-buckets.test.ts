import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { IndexBuckets } from '../../../src/store/index-buckets.js';

function obj(name: string, values: string[]): KubeObject {
  return { metadata: { name, annotations: { values: values.join(',') } } };
}

const byValues = (o: KubeObject): readonly string[] => (o.metadata.annotations?.values ?? '').split(',').filter(Boolean);

function put(index: IndexBuckets, prev: KubeObject | undefined, next: KubeObject | undefined): void {
  index.update(prev, next, next === undefined ? [] : byValues(next));
}

describe('IndexBuckets', () => {
  it('case 1: one object per value, then several, then back to one', () => {
    const index = new IndexBuckets(byValues);
    const a = obj('a', ['x']);
    const b = obj('b', ['x']);
    put(index, undefined, a);
    expect(index.objects('x')).toEqual([a]);
    put(index, undefined, b);
    expect(index.objects('x')).toEqual([a, b]);
    put(index, a, undefined);
    expect(index.objects('x')).toEqual([b]);
    put(index, b, undefined);
    expect(index.objects('x')).toEqual([]);
  });

  it('case 2: an update swaps the object under kept values and moves changed ones', () => {
    const index = new IndexBuckets(byValues);
    const v1 = obj('a', ['x', 'y']);
    const other = obj('b', ['y']);
    put(index, undefined, v1);
    put(index, undefined, other);
    const v2 = obj('a', ['y', 'z']);
    put(index, v1, v2);
    expect(index.objects('x')).toEqual([]);
    expect(index.objects('y')).toEqual([other, v2]);
    expect(index.objects('z')).toEqual([v2]);
  });

  it('case 3: duplicate values are indexed once', () => {
    const index = new IndexBuckets(byValues);
    const a = obj('a', ['x', 'x']);
    put(index, undefined, a);
    expect(index.objects('x')).toEqual([a]);
    put(index, a, undefined);
    expect(index.objects('x')).toEqual([]);
  });
  it('case 4: sorted is cached while its bucket is unchanged and rebuilt after any change to it', () => {
    const index = new IndexBuckets(byValues);
    const byName = (x: KubeObject, y: KubeObject): number => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? '');
    const [c, a, b] = [obj('c', ['x']), obj('a', ['x']), obj('b', ['x', 'y'])];
    for (const o of [c, a, b]) put(index, undefined, o);
    const first = index.sorted('x', byName);
    expect(first.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
    expect(index.sorted('x', byName)).toBe(first);
    put(index, undefined, obj('y-only', ['y']));
    expect(index.sorted('x', byName)).toBe(first);
    const b2 = obj('b', ['y']);
    put(index, b, b2);
    expect(index.sorted('x', byName).map((o) => o.metadata.name)).toEqual(['a', 'c']);
    expect(first.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
    put(index, a, undefined);
    expect(index.sorted('x', byName).map((o) => o.metadata.name)).toEqual(['c']);
  });
});
