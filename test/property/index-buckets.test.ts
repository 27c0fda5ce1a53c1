// Properties of an index's buckets under any sequence of writes. A store puts a new frozen version
// of an object (its index values may repeat a value, drop some, add others) or removes it; each
// bucket must then hold exactly the current versions that list its value, each once.
//   case 1: buckets, counts and sorted lists equal a model rebuilt from the current versions after every write.
//   case 2: the same for an index that knows its table's members, so buckets nearly every object
//           shares are kept as complements (from 2 objects on), with loads of fresh objects mixed
//           in: values are drawn so that most objects share a few, and a few objects lack them.
//   case 3: the same for an index that keeps own names implicitly, when values name objects of the
//           table: a value that is its own object's name is read from the table, not kept in a
//           bucket; other objects may carry it too, and some objects lack their own name.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/apimachinery/object-meta.js';
import { IndexBuckets } from '../../src/store/index-buckets.js';
import type { NamedMembers } from '../../src/store/own-name-entries.js';
import type { IndexFunc } from '../../src/store/store.js';
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

function expectModel(index: IndexBuckets, current: ReadonlyMap<string, KubeObject>): void {
  const model = modelOf(current);
  const counts = new Map(index.counts());
  expect(new Set(counts.keys())).toEqual(new Set(model.keys()));
  for (const [value, names] of model) {
    const held = index.objects(value);
    expect(held.length).toBe(names.size);
    expect(new Set(held)).toEqual(new Set([...names].map((name) => current.get(name))));
    expect(index.count(value)).toBe(names.size);
    expect(counts.get(value)).toBe(names.size);
    // sorted caches a list of several: asked after every write, a stale one shows.
    expect(index.sorted(value, byName)).toEqual([...names].sort().map((name) => current.get(name)));
  }
}

const byName = (a: KubeObject, b: KubeObject): number => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1);

const NAMES = Array.from({ length: 40 }, (_, i) => `o${i}`);
const sharedValues = fc.oneof(
  { arbitrary: fc.constant(['x', 'y']), weight: 12 },
  { arbitrary: fc.constant(['x']), weight: 2 },
  { arbitrary: fc.array(fc.constantFrom('x', 'y', 'z'), { maxLength: 4 }), weight: 2 },
);
type TableStep =
  | { readonly kind: 'write'; readonly name: string; readonly values?: readonly string[] }
  | { readonly kind: 'load'; readonly objects: ReadonlyArray<{ readonly name: string; readonly values: readonly string[] }> };
function tableSteps(values: fc.Arbitrary<readonly string[]>): fc.Arbitrary<TableStep[]> {
  const step: fc.Arbitrary<TableStep> = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('write' as const), name: fc.constantFrom(...NAMES), values }, { requiredKeys: ['kind', 'name'] }), weight: 9 },
    { arbitrary: fc.record({ kind: fc.constant('load' as const), objects: fc.array(fc.record({ name: fc.constantFrom(...NAMES), values }), { maxLength: 30 }) }), weight: 1 },
  );
  return fc.array(step, { maxLength: 120 });
}

// Mostly the object's own name (as a copy's by-schema-and-name value), sometimes another's, or both.
const NAMES_AS_VALUES = NAMES.slice(0, 6);
const nameValues = fc.oneof(
  { arbitrary: fc.constant(['own']), weight: 8 },
  { arbitrary: fc.array(fc.constantFrom('own', 'x', ...NAMES_AS_VALUES), { maxLength: 4 }), weight: 4 },
);

/** runTable applies steps as a table does (the table takes each write first, then tells its index) and checks the model after each. */
function runTable(steps: readonly TableStep[], valuesOf: (name: string, drawn: readonly string[]) => readonly string[], fn: IndexFunc = byValues): void {
  const current = new Map<string, KubeObject>();
  const members: NamedMembers = {
    get size() { return current.size; },
    forEach: (visit) => current.forEach((o) => visit(o)),
    get: (namespace, name) => (namespace === '' ? current.get(name) : undefined),
  };
  const index = new IndexBuckets(fn, members, 2);
  for (const step of steps) {
    if (step.kind === 'load') {
      // A load brings objects the table does not hold yet, each name once.
      const fresh = [...new Map(step.objects.filter((o) => !current.has(o.name)).map((o) => [o.name, version(o.name, valuesOf(o.name, o.values))])).values()];
      for (const o of fresh) current.set(o.metadata.name ?? '', o);
      index.addGathered(index.gather(fresh), fresh);
    } else {
      const prev = current.get(step.name);
      const next = step.values === undefined ? undefined : version(step.name, valuesOf(step.name, step.values));
      if (next === undefined) current.delete(step.name);
      else current.set(step.name, next);
      index.update(prev, next, next === undefined ? [] : byValues(next));
    }
    expectModel(index, current);
  }
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
          expectModel(index, current);
        }
      }),
      fcOptions(),
    );
  });

  it('case 2: with the table\'s members, complement buckets hold what the model holds after every write and load', () => {
    fc.assert(fc.property(tableSteps(sharedValues), (steps) => runTable(steps, (_name, drawn) => drawn)), fcOptions());
  });

  it('case 3: values that are object names, the holder\'s own one kept implicitly, equal the model after every write and load', () => {
    const withOwn = (name: string, drawn: readonly string[]): readonly string[] => drawn.map((value) => (value === 'own' ? name : value));
    const keepingOwnNames: IndexFunc = Object.assign((o: KubeObject) => byValues(o), { keepsOwnName: true });
    fc.assert(fc.property(tableSteps(nameValues), (steps) => runTable(steps, withOwn, keepingOwnNames)), fcOptions());
  });
});
