// One registered index of one cluster's objects: index value → the objects carrying it. Buckets
// hold the frozen objects themselves rather than storage keys, so a lookup needs no second map
// access and no per-object key string has to be kept. A bucket of one object is stored as the bare
// reference because many index values (owner uid, node name) are rare and a set costs ~100 bytes;
// a bucket nearly the whole table shares is stored as its complement (see all-but-bucket.ts), and
// an index whose values include each object's own name keeps those entries in no bucket at all
// (see own-name-entries.ts).

import { ChunkedMap } from '../apimachinery/chunked-map.js';
import { flatString } from '../apimachinery/flat-string.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { ChunkedSet } from '../apimachinery/chunked-set.js';
import { AllButBucket, MIN_SHARED, sharedEnough } from './all-but-bucket.js';
import { Gathered } from './gathered.js';
import { moveObject } from './index-value-moves.js';
import type { ValueMoves } from './index-value-moves.js';
import { OwnNameEntries } from './own-name-entries.js';
import type { NamedMembers } from './own-name-entries.js';
import type { IndexFunc } from './store.js';

// A bucket of many objects is a ChunkedSet: a plain Set of a million objects rehashes them all
// in one add when it doubles (see src/apimachinery/chunked-set.ts).
type Bucket = KubeObject | ChunkedSet<KubeObject> | AllButBucket;

const NO_VALUES: readonly string[] = [];

/** IndexBuckets maps the values of one index function to the objects that produce them. */
export class IndexBuckets {
  readonly fn: IndexFunc;
  /** buckets: an index of unique values (schema and name) has a value per object, so the map is chunked (see chunked-map.ts). */
  private readonly buckets = new ChunkedMap<Bucket>();
  /**
   * Buckets already sorted for listing, dropped when their bucket changes: a list of a large
   * unchanged bucket (one schema's 100k copies, paged by 500) then costs a lookup, not a sort.
   */
  private readonly sortedCache = new Map<string, readonly KubeObject[]>();
  /** The table's objects, for complement buckets and own-name entries; an index without them keeps every entry in a bucket. */
  private readonly members: NamedMembers | undefined;
  private readonly own: OwnNameEntries | undefined;
  private readonly minShared: number;
  /** The buckets kept as complements, which every write of the table has to follow. */
  private readonly allBut = new Map<string, AllButBucket>();
  /** Explicit buckets that grew shared enough during the current write: turned into complements at its end. */
  private readonly grown: string[] = [];
  private readonly moves: ValueMoves = {
    replace: (value, prev, next) => this.replace(value, prev, next),
    addFresh: (value, obj) => this.addFresh(value, obj),
    remove: (value, obj) => this.remove(value, obj),
  };

  constructor(fn: IndexFunc, members?: NamedMembers, minShared = MIN_SHARED) {
    this.fn = fn;
    this.members = members;
    this.own = members !== undefined && fn.keepsOwnName === true ? new OwnNameEntries(members) : undefined;
    this.minShared = minShared;
  }

  /** objects returns the objects indexed under value as a fresh array (empty when none). */
  objects(value: string): KubeObject[] {
    const bucket = this.buckets.get(value);
    const held = bucket === undefined ? [] : bucket instanceof ChunkedSet || bucket instanceof AllButBucket ? bucket.toArray() : [bucket];
    const own = this.own?.holder(value);
    if (own !== undefined) held.push(own);
    return held;
  }

  /** sorted returns the objects under value in list order (compare), cached until the bucket changes; never mutate it. */
  sorted(value: string, compare: (a: KubeObject, b: KubeObject) => number): readonly KubeObject[] {
    const cached = this.sortedCache.get(value);
    if (cached !== undefined) return cached;
    const objects = this.objects(value).sort(compare);
    // Only shared buckets are worth keeping: a one-object bucket is its own sorted list.
    if (objects.length > 1) this.sortedCache.set(value, objects);
    return objects;
  }

  /** counts lists every indexed value with the number of objects under it. */
  *counts(): IterableIterator<[string, number]> {
    for (const [value, bucket] of this.buckets) yield [value, sizeOf(bucket) + (this.own?.holder(value) === undefined ? 0 : 1)];
    for (const value of this.own?.values() ?? NO_VALUES) if (!this.buckets.has(value)) yield [value, 1];
  }

  /** count is the number of objects under one value. */
  count(value: string): number {
    const bucket = this.buckets.get(value);
    return (bucket === undefined ? 0 : sizeOf(bucket)) + (this.own?.holder(value) === undefined ? 0 : 1);
  }

  /**
   * update moves an object from its previous version's values to its next version's values.
   * next is a version this index does not hold yet, or prev itself (a store indexes each frozen
   * version under one key, once), so it joins buckets without a membership search.
   * nextValues are computed by the caller before any table mutation, so a throwing index function
   * cannot leave the table half-written. The cost is linear in the number of values: a value kept
   * by both versions only has its object reference swapped, an added or dropped one moves buckets.
   */
  update(prev: KubeObject | undefined, next: KubeObject | undefined, nextValues: readonly string[]): void {
    const prevInBuckets = prev === undefined ? NO_VALUES : this.bucketValues(prev, this.fn(prev));
    const nextInBuckets = next === undefined ? NO_VALUES : this.bucketValues(next, nextValues);
    this.own?.follow(prev, next, nextValues);
    // Explicit buckets move value by value; complement buckets are skipped there (add, replace and
    // remove leave them alone) and follow the write as a whole here.
    moveObject(this.moves, prev, next, prevInBuckets, nextInBuckets);
    // forEach rather than for-of: no entry array per bucket on every write.
    this.allBut.forEach((bucket, value) => {
      if (this.sortedCache.size > 0) this.sortedCache.delete(value);
      bucket.follow(prev, next, next !== undefined && nextInBuckets.includes(value));
      if (bucket.tooSparse) this.makeExplicit(value, bucket);
    });
    if (this.grown.length > 0) this.settleGrown();
  }

  /**
   * gather runs the index function over distinct objects not indexed yet (a load) and groups
   * them by value, without changing the index: a throwing index function leaves it as it was.
   * Each list holds an object once, even when the function yields a value twice for it.
   */
  gather(objects: readonly KubeObject[]): Gathered {
    const gathered = new Gathered();
    for (const obj of objects) {
      const values = this.fn(obj);
      if (this.own?.lacksOwnName(obj, values) === true) gathered.notOwnNamed.push(obj);
      for (const value of this.bucketValues(obj, values)) {
        const list = gathered.get(value);
        if (list === undefined) gathered.set(value, [obj]);
        // Objects come one after the other: a repeat of obj can only be the list's last entry.
        else if (list[list.length - 1] !== obj) list.push(obj);
      }
    }
    return gathered;
  }

  /**
   * addGathered indexes what gather grouped from fresh, objects the table has just taken: a bucket
   * many objects share is built in one go, not grown one add (and rehash) at a time.
   */
  addGathered(gathered: Gathered, fresh: readonly KubeObject[]): void {
    this.own?.addExceptions(gathered.notOwnNamed);
    const before = new Set(this.allBut.keys());
    for (const [value, list] of gathered) {
      this.sortedCache.delete(value);
      const bucket = this.buckets.get(value);
      if (bucket instanceof AllButBucket) continue;
      if (list.length === 1 || bucket !== undefined) {
        for (const obj of list) this.add(value, obj);
      } else if (this.members !== undefined && list.length === this.members.size && list.length >= this.minShared) {
        // The table held nothing else: every object carries the value.
        this.setAllBut(flatString(value), new AllButBucket(this.members));
      } else {
        // gather lists an object once: a list of several is a bucket of several.
        this.buckets.set(flatString(value), ChunkedSet.fromDistinct(list));
        this.noteGrowth(value, list.length);
      }
    }
    // A complement bucket holds the fresh objects already: those without its value are left out.
    for (const value of before) {
      const bucket = this.allBut.get(value) as AllButBucket;
      this.sortedCache.delete(value);
      const holding = gathered.get(value) ?? [];
      if (holding.length < fresh.length) {
        const held = new Set(holding);
        bucket.excludeAll(fresh.filter((obj) => !held.has(obj)));
      }
      if (bucket.tooSparse) this.makeExplicit(value, bucket);
    }
    this.settleGrown();
  }

  /**
   * bucketValues are the values of obj kept in buckets: all but its own name (kept implicitly). A
   * sorted list cached for that value holds obj, or should: it is dropped.
   */
  private bucketValues(obj: KubeObject, values: readonly string[]): readonly string[] {
    const own = this.own?.ownValue(obj, values);
    if (own === undefined) return values;
    this.sortedCache.delete(own);
    return values.length === 1 ? NO_VALUES : values.filter((value) => value !== own);
  }

  private add(value: string, obj: KubeObject): void {
    this.sortedCache.delete(value);
    const bucket = this.buckets.get(value);
    if (bucket === undefined) this.buckets.set(flatString(value), obj); // kept as long as its bucket (see flat-string.ts)
    else if (bucket instanceof ChunkedSet) this.noteGrowth(value, bucket.add(obj).size);
    else if (bucket !== obj && !(bucket instanceof AllButBucket)) this.buckets.set(value, new ChunkedSet([bucket, obj]));
  }

  /** addFresh adds a version the index does not hold yet (or holds under value as the last one added). */
  private addFresh(value: string, obj: KubeObject): void {
    const bucket = this.buckets.get(value);
    if (bucket instanceof ChunkedSet) {
      this.sortedCache.delete(value);
      this.noteGrowth(value, bucket.addFresh(obj).size);
    } else {
      this.add(value, obj);
    }
  }

  private replace(value: string, prev: KubeObject, next: KubeObject): void {
    this.sortedCache.delete(value);
    const bucket = this.buckets.get(value);
    if (bucket === prev) {
      this.buckets.set(value, next);
    } else if (bucket instanceof ChunkedSet) {
      bucket.delete(prev);
      bucket.addFresh(next);
    } else {
      this.add(value, next);
    }
  }

  private remove(value: string, obj: KubeObject): void {
    this.sortedCache.delete(value);
    const bucket = this.buckets.get(value);
    if (bucket === obj) {
      this.buckets.delete(value);
    } else if (bucket instanceof ChunkedSet && bucket.delete(obj) && bucket.size === 1) {
      // Back to the cheap single-reference form.
      for (const only of bucket) this.buckets.set(value, only);
    }
  }

  private noteGrowth(value: string, size: number): void {
    if (this.members === undefined || !sharedEnough(size, this.members.size, this.minShared)) return;
    if (this.grown[this.grown.length - 1] !== value) this.grown.push(value);
  }

  // Run once the write is applied to every bucket, so a set converted holds no replaced version.
  private settleGrown(): void {
    const members = this.members;
    if (members === undefined) return;
    for (const value of this.grown) {
      const bucket = this.buckets.get(value);
      if (bucket instanceof ChunkedSet && sharedEnough(bucket.size, members.size, this.minShared)) this.setAllBut(value, AllButBucket.of(members, bucket));
    }
    this.grown.length = 0;
  }

  private setAllBut(value: string, bucket: AllButBucket): void {
    this.buckets.set(value, bucket);
    this.allBut.set(value, bucket);
  }

  private makeExplicit(value: string, bucket: AllButBucket): void {
    this.allBut.delete(value);
    const held = bucket.toArray();
    if (held.length === 0) this.buckets.delete(value);
    else this.buckets.set(value, held.length === 1 ? (held[0] as KubeObject) : ChunkedSet.fromDistinct(held));
  }
}

function sizeOf(bucket: Bucket): number {
  return bucket instanceof ChunkedSet || bucket instanceof AllButBucket ? bucket.size : 1;
}
