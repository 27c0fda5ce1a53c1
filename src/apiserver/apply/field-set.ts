// A set of field paths: what one manager owns, what one apply sets, what one update changed.
// Paths are kept flat (keyed by their JSON form) because every operation server-side apply needs
// (union, difference, intersection, "does anyone own something under here") is simplest on a flat
// set, and the objects served here are small. FieldsV1, kube's wire form, is a tree: each node is a
// JSON object of child elements, `{}` is a leaf member, and `".": {}` marks a node that is itself a
// member while also having members below it (a keyed list item and its fields).

import { isPlainObject } from '../../apimachinery/object-meta.js';
import type { FieldPath } from './field-path.js';

/** FieldSet is an immutable-by-convention set of field paths. */
export class FieldSet {
  private readonly byKey = new Map<string, FieldPath>();

  constructor(paths: Iterable<FieldPath> = []) {
    for (const path of paths) this.add(path);
  }

  /** fromFieldsV1 reads kube's FieldsV1 tree; anything that is not an object tree is empty. */
  static fromFieldsV1(tree: unknown): FieldSet {
    const set = new FieldSet();
    const walk = (node: Record<string, unknown>, prefix: FieldPath): void => {
      for (const [element, child] of Object.entries(node)) {
        if (element === '.') {
          if (prefix.length > 0) set.add(prefix);
          continue;
        }
        const path = [...prefix, element];
        if (!isPlainObject(child)) continue;
        if (Object.keys(child).length === 0) set.add(path);
        else walk(child, path);
      }
    };
    if (isPlainObject(tree)) walk(tree, []);
    return set;
  }

  /** add puts a path in the set (used while building one; sets are not changed once shared). */
  add(path: FieldPath): void {
    this.byKey.set(keyOf(path), path);
  }

  has(path: FieldPath): boolean {
    return this.byKey.has(keyOf(path));
  }

  get size(): number {
    return this.byKey.size;
  }

  paths(): FieldPath[] {
    return [...this.byKey.values()];
  }

  union(other: FieldSet): FieldSet {
    return new FieldSet([...this.paths(), ...other.paths()]);
  }

  difference(other: FieldSet): FieldSet {
    return new FieldSet(this.paths().filter((path) => !other.has(path)));
  }

  intersection(other: FieldSet): FieldSet {
    return new FieldSet(this.paths().filter((path) => other.has(path)));
  }

  equals(other: FieldSet): boolean {
    return this.size === other.size && this.paths().every((path) => other.has(path));
  }

  /** hasAtOrBelow tells whether the set holds path itself or anything under it. */
  hasAtOrBelow(path: FieldPath): boolean {
    return this.paths().some((member) => member.length >= path.length && path.every((element, i) => member[i] === element));
  }

  /** toFieldsV1 writes the set as kube's FieldsV1 tree, `.` first and the other keys sorted. */
  toFieldsV1(): Record<string, unknown> {
    interface Node { member: boolean; children: Map<string, Node> }
    const root: Node = { member: false, children: new Map() };
    for (const path of this.paths()) {
      let node = root;
      for (const element of path) {
        let next = node.children.get(element);
        if (next === undefined) {
          next = { member: false, children: new Map() };
          node.children.set(element, next);
        }
        node = next;
      }
      node.member = true;
    }
    const render = (node: Node): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      if (node.member && node.children.size > 0) out['.'] = {};
      for (const element of [...node.children.keys()].sort()) out[element] = render(node.children.get(element) as Node);
      return out;
    };
    return render(root);
  }
}

/**
 * keyOf is a path's key in the set: its elements joined by NUL, which no element holds (field names,
 * `k:`/`v:` JSON and `i:` indexes escape it), and several times cheaper than JSON.stringify on
 * objects with thousands of fields, for which every write computes several sets.
 */
function keyOf(path: FieldPath): string {
  return path.join('\u0000');
}
