// An index bucket that nearly every object of its table shares (the schema of a cache location
// that replicates one resource, a label every copy carries, the location's own shard and cluster)
// is kept as "every object of the table but these few" instead of a set with an entry per object.
// At 100k copies a dozen such buckets held a dozen hash-table entries per copy (about a sixth of
// the heap), and every write searched each of them; in this form a write that keeps the value
// costs one lookup in an empty set.

import { ChunkedSet } from '../apimachinery/chunked-set.js';
import type { KubeObject } from '../apimachinery/object-meta.js';

/**
 * TableMembers are the objects a table holds. An index is told of a write after the table has
 * taken it: a created or replacing version is a member, a deleted one no longer is.
 */
export interface TableMembers {
  readonly size: number;
  forEach(visit: (obj: KubeObject) => void): void;
}

/** MIN_SHARED is the smallest bucket worth the complement form: below it a set is small anyway. */
export const MIN_SHARED = 1024;

/** sharedEnough tells whether a bucket of held objects out of total is held by all but a sixteenth (or less). */
export function sharedEnough(held: number, total: number, minShared: number): boolean {
  return held >= minShared && (total - held) * 16 <= total;
}

/** AllButBucket is the objects of a table except the excluded ones. */
export class AllButBucket {
  readonly #members: TableMembers;
  readonly #excluded: ChunkedSet<KubeObject>;

  constructor(members: TableMembers, excluded: ChunkedSet<KubeObject> = new ChunkedSet()) {
    this.#members = members;
    this.#excluded = excluded;
  }

  /** of builds the complement of held (a subset of members), scanning the members only when some are left out. */
  static of(members: TableMembers, held: { readonly size: number; has(obj: KubeObject): boolean }): AllButBucket {
    const excluded = new ChunkedSet<KubeObject>();
    if (held.size < members.size) {
      members.forEach((obj) => {
        if (!held.has(obj)) excluded.addFresh(obj);
      });
    }
    return new AllButBucket(members, excluded);
  }

  get size(): number {
    return this.#members.size - this.#excluded.size;
  }

  /** toArray lists the held objects in the table's order. */
  toArray(): KubeObject[] {
    const out: KubeObject[] = [];
    const excluded = this.#excluded;
    if (excluded.size === 0) this.#members.forEach((obj) => out.push(obj));
    else {
      this.#members.forEach((obj) => {
        if (!excluded.has(obj)) out.push(obj);
      });
    }
    return out;
  }

  /**
   * follow keeps the exclusions true after a write of the table: prev (if any) is no member any
   * more, and next (if any) is one, held only if it carries the bucket's value.
   */
  follow(prev: KubeObject | undefined, next: KubeObject | undefined, nextHolds: boolean): void {
    if (prev !== undefined && this.#excluded.size > 0) this.#excluded.delete(prev);
    if (next !== undefined && !nextHolds) this.#excluded.addFresh(next);
  }

  /** excludeAll leaves out objects that just joined the table without the bucket's value. */
  excludeAll(objects: Iterable<KubeObject>): void {
    for (const obj of objects) this.#excluded.addFresh(obj);
  }

  /** tooSparse: more than an eighth of the table is left out, so an explicit set costs less. */
  get tooSparse(): boolean {
    return this.#excluded.size * 8 > this.#members.size;
  }
}
