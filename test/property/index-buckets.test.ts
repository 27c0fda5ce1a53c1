// Properties of an index's buckets under any sequence of writes. A store puts a new frozen version
// of an object (its index values may repeat a value, drop some, add others) or removes it; each
// bucket must then hold exactly the current versions that list its value, each once.
//   case 1: buckets and counts equal a model rebuilt from the current versions after every write.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/apimachinery/object-meta.js';
import { IndexBuckets } from '../../src/store/index-buckets.js';
import { fcOptions } from './arbitraries.js';

const VALUES = new WeakMap<KubeObject, readonly string[]>();
const byValues = (o: KubeObject): readonly string[] => VALUES.get(o) ?? [];

function version(name: string, values: readonly string[]): KubeObject {
  const o: KubeObject = Object.freeze({ metadata: Object.freeze({ name }) });
  VALUES.set(o, values);
  return o;
}

type Write = { readonly name: string; readonly values?: readonly string[] };

const write: fc.Arbitrary<Write> = fc.record(
  { name: fc.constantFrom('a', 'b', 'c', 'd'), values: fc.array(fc.constantFrom('x', 'y', 'z', 'w'), { maxLength: 6 }) },
  { requiredKeys: ['name'] },
);

function modelOf(current: ReadonlyMap<string, KubeObject>): Map<string, Set<string>> {
  const model = new Map<string, Set<string>>();
  for (const [name, obj] of current) {
    for (const value of byValues(obj)) {
      const names = model.get(value) ?? new Set<string>();
      names.add(name);
      model.set(value, names);
    }
  }
  return model;
}

describe('IndexBuckets under random writes', () => {
  it('case 1: buckets and counts equal the model of the current versions after every write', () => {
    fc.assert(
      fc.property(fc.array(write, { maxLength: 40 }), (writes) => {
        const index = new IndexBuckets(byValues);
        const current = new Map<string, KubeObject>();
        for (const w of writes) {
          const prev = current.get(w.name);
          const next = w.values === undefined ? undefined : version(w.name, w.values);
          index.update(prev, next, next === undefined ? [] : byValues(next));
          if (next === undefined) current.delete(w.name);
          else current.set(w.name, next);
          const model = modelOf(current);
          const counts = new Map(index.counts());
          expect(new Set(counts.keys())).toEqual(new Set(model.keys()));
          for (const [value, names] of model) {
            const held = index.objects(value);
            expect(held.length).toBe(names.size);
            expect(new Set(held)).toEqual(new Set([...names].map((name) => current.get(name))));
            expect(index.count(value)).toBe(names.size);
          }
        }
      }),
      fcOptions(),
    );
  });
});
