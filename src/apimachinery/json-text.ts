// Serialising cache objects once: stored objects are deeply frozen, so the JSON text of one can
// be kept (weakly) and reused by every request and every event stream that sends it.

import { joinedJsonBytes } from './joined-json-bytes.js';
import type { KubeObject } from './object-meta.js';

/** JsonText gives the JSON text of objects, caching it for frozen ones. */
export class JsonText {
  readonly #cache = new WeakMap<object, string>();

  /** of returns the JSON text of an object. */
  of(obj: KubeObject): string {
    let text = this.#cache.get(obj);
    if (text === undefined) {
      text = JSON.stringify(obj);
      if (Object.isFrozen(obj)) this.#cache.set(obj, text);
    }
    return text;
  }

  /** peek returns the JSON text of an object, cached or made, without keeping what it made. */
  peek(obj: KubeObject): string {
    return this.#cache.get(obj) ?? JSON.stringify(obj);
  }

  /** list renders `{...head, items: [...]}` with the items' cached texts, items last, as UTF-8 bytes (see joined-json-bytes.ts). */
  list(head: Readonly<Record<string, unknown>>, items: readonly KubeObject[]): Buffer {
    const start = JSON.stringify(head);
    const open = start === '{}' ? '{' : `${start.slice(0, -1)},`;
    return joinedJsonBytes(`${open}"items":[`, items.map((item) => this.of(item)), ']}');
  }
}
