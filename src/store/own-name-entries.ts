// An index whose values include each object's own name (the copies' by-schema-and-name index:
// a copy at its readable name has the exact key as its name) keeps those entries in no bucket: the
// table's name map already leads from that string to that object. One map entry fewer per copy
// (about 37 bytes at 100k copies and more). The index function says so (keepsOwnName); the
// cluster-scoped objects whose values lack their own name (a copy at a hashed name, one that names
// no original) are kept as exceptions, usually none, so a lookup costs one name-map read.

import type { KubeObject } from '../apimachinery/object-meta.js';
import { ChunkedSet } from '../apimachinery/chunked-set.js';
import type { TableMembers } from './all-but-bucket.js';

/** NamedMembers are a table's objects, with the O(1) lookup by namespace and name. */
export interface NamedMembers extends TableMembers {
  get(namespace: string, name: string): KubeObject | undefined;
}

/** OwnNameEntries are the index entries kept implicitly: the value, an object's own name; the object, the table's. */
export class OwnNameEntries {
  readonly #members: NamedMembers;
  /** Cluster-scoped objects held whose values lack their own name (chunked: a table can hold a million). */
  readonly #exceptions = new ChunkedSet<KubeObject>();

  constructor(members: NamedMembers) {
    this.#members = members;
  }

  /** ownValue is obj's own name when obj is cluster-scoped and values hold it: the one value of obj kept implicitly. */
  ownValue(obj: KubeObject, values: readonly string[]): string | undefined {
    const name = obj.metadata.name;
    return isClusterScoped(obj) && name !== undefined && values.includes(name) ? name : undefined;
  }

  /** lacksOwnName tells an exception: a cluster-scoped obj whose values do not hold its own name. */
  lacksOwnName(obj: KubeObject, values: readonly string[]): boolean {
    return isClusterScoped(obj) && this.ownValue(obj, values) === undefined;
  }

  /** follow records a write: prev (if any) is no longer held, next (if any) is, with nextValues. */
  follow(prev: KubeObject | undefined, next: KubeObject | undefined, nextValues: readonly string[]): void {
    if (prev !== undefined && this.#exceptions.size > 0) this.#exceptions.delete(prev);
    if (next !== undefined && this.lacksOwnName(next, nextValues)) this.#exceptions.add(next);
  }

  /** addExceptions records loaded objects known to lack their own name. */
  addExceptions(objects: readonly KubeObject[]): void {
    for (const obj of objects) this.#exceptions.add(obj);
  }

  /** holder is the object kept implicitly under value: the table's cluster-scoped object of that name, unless an exception. */
  holder(value: string): KubeObject | undefined {
    const obj = this.#members.get('', value);
    return obj === undefined || (this.#exceptions.size > 0 && this.#exceptions.has(obj)) ? undefined : obj;
  }

  /** values lists every value kept implicitly (one object each), in no particular order. */
  values(): string[] {
    const out: string[] = [];
    this.#members.forEach((obj) => {
      const name = obj.metadata.name;
      if (isClusterScoped(obj) && name !== undefined && !this.#exceptions.has(obj)) out.push(name);
    });
    return out;
  }
}

/** isClusterScoped: the table keeps obj under namespace '' (where holder looks). */
function isClusterScoped(obj: KubeObject): boolean {
  const namespace = obj.metadata.namespace;
  return namespace === undefined || namespace === '';
}
