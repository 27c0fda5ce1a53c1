// An index value that is its own object's name (a cluster-scoped object) is kept in no bucket:
// the table's name map already maps that string to that object, so the index reads the object
// from there. The copies' by-schema-and-name index yields exactly such a value for every copy at
// its readable name: one map entry fewer per copy (about 37 bytes at 100k copies and more).

import type { KubeObject } from '../apimachinery/object-meta.js';
import type { TableMembers } from './all-but-bucket.js';
import type { IndexFunc } from './store.js';

/** NamedMembers are a table's objects, with the O(1) lookup by namespace and name. */
export interface NamedMembers extends TableMembers {
  get(namespace: string, name: string): KubeObject | undefined;
}

/** OwnNameEntries are the index entries kept implicitly: the value, an object's own name; the object, the table's. */
export class OwnNameEntries {
  readonly #fn: IndexFunc;
  readonly #members: NamedMembers;
  /**
   * seen: some object's values held its own name. Until then no lookup reads the table: most
   * indexes (labels, locations) never yield a name. Set when first seen and never cleared; it only
   * decides whether to look.
   */
  #seen = false;

  constructor(fn: IndexFunc, members: NamedMembers) {
    this.#fn = fn;
    this.#members = members;
  }

  /** ownValue is obj's own name when obj is cluster-scoped and values hold it: the one value of obj kept implicitly. */
  ownValue(obj: KubeObject, values: readonly string[]): string | undefined {
    const name = obj.metadata.name;
    if (!isClusterScoped(obj) || name === undefined || name === '' || !values.includes(name)) return undefined;
    this.#seen = true;
    return name;
  }

  /** holder is the object kept implicitly under value: the table's cluster-scoped object of that name, if its values hold it. */
  holder(value: string): KubeObject | undefined {
    if (!this.#seen) return undefined;
    const obj = this.#members.get('', value);
    return obj !== undefined && this.#fn(obj).includes(value) ? obj : undefined;
  }

  /** values lists every value kept implicitly (one object each), in no particular order. */
  values(): string[] {
    const out: string[] = [];
    if (!this.#seen) return out;
    this.#members.forEach((obj) => {
      const name = obj.metadata.name;
      if (isClusterScoped(obj) && name !== undefined && name !== '' && this.#fn(obj).includes(name)) out.push(name);
    });
    return out;
  }
}

function isClusterScoped(obj: KubeObject): boolean {
  const namespace = obj.metadata.namespace;
  return namespace === undefined || namespace === '';
}
