// The overlay's storage: entries grouped by resource scope, then by namespace/name, so a list
// only walks the entries of its own resource. Counts are kept on every change, so size() is O(1)
// and a metrics scrape costs nothing.

import type { OverlayEntry } from './overlay-entry.js';
import { inNamespace, objectPart, overlayScopeString } from './overlay-key.js';
import type { OverlayKey, OverlayScope } from './overlay-key.js';

/** OverlaySize counts live entries and tombstones. */
export interface OverlaySize {
  readonly live: number;
  readonly tombstones: number;
}

/** EntryTable stores overlay entries by scope and object; empty scopes are removed. */
export class EntryTable {
  readonly #scopes = new Map<string, Map<string, OverlayEntry>>();
  #live = 0;
  #tombstones = 0;

  /** get returns the entry of a key, expired or not. */
  get(key: OverlayKey): OverlayEntry | undefined {
    return this.#scopes.get(overlayScopeString(key))?.get(objectPart(key.namespace, key.name));
  }

  /** set stores an entry, replacing the one of the same key. */
  set(entry: OverlayEntry): void {
    const scopeKey = overlayScopeString(entry.key);
    let scope = this.#scopes.get(scopeKey);
    if (scope === undefined) {
      scope = new Map();
      this.#scopes.set(scopeKey, scope);
    }
    const objectKey = objectPart(entry.key.namespace, entry.key.name);
    const previous = scope.get(objectKey);
    if (previous !== undefined) this.#count(previous, -1);
    scope.set(objectKey, entry);
    this.#count(entry, 1);
  }

  /** delete removes the entry of a key and tells whether there was one. */
  delete(key: OverlayKey): boolean {
    const scopeKey = overlayScopeString(key);
    const scope = this.#scopes.get(scopeKey);
    const objectKey = objectPart(key.namespace, key.name);
    const previous = scope?.get(objectKey);
    if (scope === undefined || previous === undefined) return false;
    scope.delete(objectKey);
    this.#count(previous, -1);
    if (scope.size === 0) this.#scopes.delete(scopeKey);
    return true;
  }

  /** inScope lists the entries of a scope (namespace-filtered), as a snapshot safe to mutate under. */
  inScope(scope: OverlayScope): OverlayEntry[] {
    const entries = this.#scopes.get(overlayScopeString(scope));
    if (entries === undefined) return [];
    return [...entries.values()].filter((entry) => inNamespace(scope, entry.key.namespace));
  }

  /** lookupIn returns a getter by namespace/name for one scope, or undefined when it has no entries. */
  lookupIn(scope: OverlayScope): ((namespace: string, name: string) => OverlayEntry | undefined) | undefined {
    const entries = this.#scopes.get(overlayScopeString(scope));
    if (entries === undefined) return undefined;
    return (namespace, name) => entries.get(objectPart(namespace, name));
  }

  /** all lists every entry, as a snapshot. */
  all(): OverlayEntry[] {
    const out: OverlayEntry[] = [];
    for (const entries of this.#scopes.values()) out.push(...entries.values());
    return out;
  }

  /** size counts live entries and tombstones. */
  size(): OverlaySize {
    return { live: this.#live, tombstones: this.#tombstones };
  }

  #count(entry: OverlayEntry, delta: 1 | -1): void {
    if (entry.deleted) this.#tombstones += delta;
    else this.#live += delta;
  }
}
