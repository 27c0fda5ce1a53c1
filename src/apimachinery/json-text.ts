// Serialising cache objects once: stored objects are deeply frozen, so the JSON text of one can
// be kept (weakly) and reused by every request and every event stream that sends it. Kept for
// every object ever sent, the texts would cost as much memory as the objects again once a client
// has listed everything (a restarted process read back 100k copies and then listed them: +175 MB),
// so only the recently sent ones stay: texts are kept in a young generation until it holds
// budgetChars characters, which then becomes the old one (the previous old one is dropped); a text
// found in the old generation moves to the young one. At most about twice the budget is kept, and
// the objects sent most often keep theirs.

import { joinedJsonBytes } from './joined-json-bytes.js';
import type { KubeObject } from './object-meta.js';

/** DEFAULT_BUDGET_CHARS: 32 Mi characters a generation, the texts of ~20k copies of ~1.7 KB. */
const DEFAULT_BUDGET_CHARS = 32 * 2 ** 20;

/** JsonText gives the JSON text of objects, caching it for frozen ones. */
export class JsonText {
  readonly #budgetChars: number;
  #young = new WeakMap<object, string>();
  #old = new WeakMap<object, string>();
  #youngChars = 0;

  /** budgetChars is the size of a generation of texts (see above). */
  constructor(budgetChars = DEFAULT_BUDGET_CHARS) {
    this.#budgetChars = budgetChars;
  }

  /** of returns the JSON text of an object. */
  of(obj: KubeObject): string {
    const young = this.#young.get(obj);
    if (young !== undefined) return young;
    const text = this.#old.get(obj) ?? JSON.stringify(obj);
    if (Object.isFrozen(obj)) this.#keep(obj, text);
    return text;
  }

  /** peek returns the JSON text of an object, cached or made, without keeping what it made. */
  peek(obj: KubeObject): string {
    return this.#young.get(obj) ?? this.#old.get(obj) ?? JSON.stringify(obj);
  }

  #keep(obj: KubeObject, text: string): void {
    this.#young.set(obj, text);
    this.#youngChars += text.length;
    if (this.#youngChars < this.#budgetChars) return;
    this.#old = this.#young;
    this.#young = new WeakMap();
    this.#youngChars = 0;
  }

  /** list renders `{...head, items: [...]}` with the items' cached texts, items last, as UTF-8 bytes (see joined-json-bytes.ts). */
  list(head: Readonly<Record<string, unknown>>, items: readonly KubeObject[]): Buffer {
    const start = JSON.stringify(head);
    const open = start === '{}' ? '{' : `${start.slice(0, -1)},`;
    return joinedJsonBytes(`${open}"items":[`, items.map((item) => this.of(item)), ']}');
  }
}
