// One registered index of one cluster's objects: index value → the objects carrying it. Buckets
// hold the frozen objects themselves rather than storage keys, so a lookup needs no second map
// access and no per-object key string has to be kept. A bucket of one object is stored as the bare
// reference because many index values (owner uid, node name) are rare and a set costs ~100 bytes.

import { ChunkedMap } from '../apimachinery/chunked-map.js';
import { flatString } from '../apimachinery/flat-string.js';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { ChunkedSet } from '../apimachinery/chunked-set.js';
import type { IndexFunc } from './store.js';

// A bucket of many objects is a ChunkedSet: a plain Set of a million objects rehashes them all
// in one add when it doubles (see src/apimachinery/chunked-set.ts).
type Bucket = KubeObject | ChunkedSet<KubeObject>;

const NO_VALUES: readonly string[] = [];

/**
 * SMALL_PRODUCT bounds prev × next value counts for which update scans arrays instead of building
 * sets: up to about 50 values on each side (a CachedObject with 20 labels has 2 × 26) the scans
 * measured faster, beyond that the sets win.
 */
const SMALL_PRODUCT = 2500;

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

  constructor(fn: IndexFunc) {
    this.fn = fn;
  }

  /** objects returns the objects indexed under value as a fresh array (empty when none). */
  objects(value: string): KubeObject[] {
    const bucket = this.buckets.get(value);
    if (bucket === undefined) return [];
    return bucket instanceof ChunkedSet ? bucket.toArray() : [bucket];
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
    for (const [value, bucket] of this.buckets) yield [value, bucket instanceof ChunkedSet ? bucket.size : 1];
  }

  /** count is the number of objects under one value. */
  count(value: string): number {
    const bucket = this.buckets.get(value);
    return bucket === undefined ? 0 : bucket instanceof ChunkedSet ? bucket.size : 1;
  }

  /** valuesOf runs the index function; an object it cannot index yields no values. */
  valuesOf(obj: KubeObject | undefined): readonly string[] {
    return obj === undefined ? NO_VALUES : this.fn(obj);
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
    if (prev === undefined) {
      if (next !== undefined) for (const value of nextValues) this.addFresh(value, next);
      return;
    }
    const prevValues = this.valuesOf(prev);
    if (next === undefined) {
      for (const value of prevValues) this.remove(value, prev);
      return;
    }
    if (prevValues.length * nextValues.length <= SMALL_PRODUCT) this.moveSmall(prev, next, prevValues, nextValues);
    else this.moveLarge(prev, next, prevValues, nextValues);
  }

  // The common object has a handful of values: scanning the two short arrays costs less than
  // building two sets, and allocates nothing.
  private moveSmall(prev: KubeObject, next: KubeObject, prevValues: readonly string[], nextValues: readonly string[]): void {
    for (const value of nextValues) {
      if (prevValues.includes(value)) this.replace(value, prev, next);
      else this.addFresh(value, next);
    }
    for (const value of prevValues) if (!nextValues.includes(value)) this.remove(value, prev);
  }

  // An object with thousands of labels (two label-index values per label) would make the scans
  // above quadratic: 15k labels cost seconds per write. Index functions list values in a stable
  // order (labels keep their order across a patch), so a value kept at the same position only has
  // its reference swapped; only the values that moved, came or went go through sets.
  private moveLarge(prev: KubeObject, next: KubeObject, prevValues: readonly string[], nextValues: readonly string[]): void {
    const common = Math.min(prevValues.length, nextValues.length);
    const kept = new Set<string>();
    const wanted = new Set<string>();
    for (let i = 0; i < common; i++) {
      const before = prevValues[i] as string;
      const after = nextValues[i] as string;
      if (before === after) {
        this.replace(after, prev, next);
      } else {
        kept.add(before);
        wanted.add(after);
      }
    }
    for (let i = common; i < prevValues.length; i++) kept.add(prevValues[i] as string);
    for (let i = common; i < nextValues.length; i++) wanted.add(nextValues[i] as string);
    for (const value of wanted) {
      if (kept.delete(value)) this.replace(value, prev, next);
      else this.addFresh(value, next);
    }
    for (const value of kept) this.remove(value, prev);
  }

  /**
   * gather runs the index function over distinct objects not indexed yet (a load) and groups
   * them by value, without changing the index: a throwing index function leaves it as it was.
   * Each list holds an object once, even when the function yields a value twice for it.
   */
  gather(objects: readonly KubeObject[]): Map<string, KubeObject[]> {
    const gathered = new Map<string, KubeObject[]>();
    for (const obj of objects) {
      for (const value of this.fn(obj)) {
        const list = gathered.get(value);
        if (list === undefined) gathered.set(value, [obj]);
        // Objects come one after the other: a repeat of obj can only be the list's last entry.
        else if (list[list.length - 1] !== obj) list.push(obj);
      }
    }
    return gathered;
  }

  /** addGathered indexes what gather grouped: a bucket many objects share is built in one go, not grown one add (and rehash) at a time. */
  addGathered(gathered: ReadonlyMap<string, readonly KubeObject[]>): void {
    for (const [value, list] of gathered) {
      if (list.length === 1 || this.buckets.has(value)) {
        for (const obj of list) this.add(value, obj);
        continue;
      }
      // gather lists an object once: a list of several is a bucket of several.
      this.sortedCache.delete(value);
      this.buckets.set(flatString(value), ChunkedSet.fromDistinct(list));
    }
  }

  private add(value: string, obj: KubeObject): void {
    this.sortedCache.delete(value);
    const bucket = this.buckets.get(value);
    // A new key stays as long as its bucket: store it flat (see flat-string.ts).
    if (bucket === undefined) this.buckets.set(flatString(value), obj);
    else if (bucket instanceof ChunkedSet) bucket.add(obj);
    else if (bucket !== obj) this.buckets.set(value, new ChunkedSet([bucket, obj]));
  }

  /** addFresh adds a version the index does not hold yet (or holds under value as the last one added). */
  private addFresh(value: string, obj: KubeObject): void {
    const bucket = this.buckets.get(value);
    if (bucket instanceof ChunkedSet) {
      this.sortedCache.delete(value);
      bucket.addFresh(obj);
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
}
