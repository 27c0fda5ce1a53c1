// The object store behind a reflector, and the handlers it notifies. Keys include the logical
// cluster (`<cluster>|<namespace>/<name>`), so same-named objects of two kcp logical clusters
// stay apart — the reason cachegate does not use client-node's ListWatch cache.

import type { Logger } from 'pino';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { flatString } from '../apimachinery/flat-string.js';
import { LoopTurns } from '../apimachinery/loop-turns.js';
import { deepFreeze } from '../apimachinery/object-meta.js';

/** InformerHandler receives changes to the store; update gets the new object first, then the old one. */
export interface InformerHandler {
  add?(obj: KubeObject): void;
  update?(obj: KubeObject, old: KubeObject): void;
  delete?(obj: KubeObject): void;
}

/** cacheKey is the store key of an object in a logical cluster. */
export function cacheKey(cluster: string, namespace: string | undefined, name: string): string {
  return `${cluster}|${namespace ?? ''}/${name}`;
}

/** InformerCache holds deep-frozen objects by cluster, namespace and name, and tells handlers about changes. */
export class InformerCache {
  readonly #objects = new Map<string, KubeObject>();
  readonly #handlers = new Set<InformerHandler>();
  readonly #clusterOf: (obj: KubeObject) => string;
  readonly #log: Logger;
  #silenced = false;

  constructor(clusterOf: (obj: KubeObject) => string, log: Logger) {
    this.#clusterOf = clusterOf;
    this.#log = log;
  }

  /** get reads one object. */
  get(cluster: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.#objects.get(cacheKey(cluster, namespace, name));
  }

  /** values iterates over every object. */
  values(): IterableIterator<KubeObject> {
    return this.#objects.values();
  }

  /** size is the number of objects. */
  get size(): number {
    return this.#objects.size;
  }

  /** upsert stores an added or modified object and tells handlers whether it is new. */
  upsert(obj: KubeObject): void {
    const frozen = deepFreeze(obj);
    const key = this.#keyOf(frozen);
    this.#set(key, frozen, this.#objects.get(key));
  }

  /** remove forgets a deleted object and tells handlers, with the object's last state. */
  remove(obj: KubeObject): void {
    const frozen = deepFreeze(obj);
    this.#objects.delete(this.#keyOf(frozen));
    this.#emit((h) => h.delete?.(frozen));
  }

  /**
   * replace makes the store equal to a fresh list: new objects are added, changed ones (another
   * resourceVersion or another UID) updated, vanished ones deleted; unchanged ones raise no event.
   * A list of a million objects takes seconds to apply, so the work gives the event loop a turn
   * every TURN_BUDGET_MS (readers meanwhile see each object either before or after, never torn).
   */
  async replace(items: Iterable<KubeObject>): Promise<void> {
    const turns = new LoopTurns();
    const fresh = new Map<string, KubeObject>();
    for (const item of items) {
      const frozen = deepFreeze(item);
      fresh.set(this.#keyOf(frozen), frozen);
      if (turns.spent()) await turns.nextTurn();
    }
    for (const [key, old] of [...this.#objects]) {
      if (fresh.has(key)) continue;
      this.#objects.delete(key);
      this.#emit((h) => h.delete?.(old));
      if (turns.spent()) await turns.nextTurn();
    }
    for (const [key, obj] of fresh) {
      const old = this.#objects.get(key);
      if (old !== undefined && sameVersion(old, obj)) continue;
      this.#set(key, obj, old);
      if (turns.spent()) await turns.nextTurn();
    }
  }

  /** addHandler registers a handler; with replay it first gets `add` for every stored object. */
  addHandler(handler: InformerHandler, replay: boolean): () => void {
    this.#handlers.add(handler);
    if (replay) for (const obj of [...this.#objects.values()]) this.#call(handler, (h) => h.add?.(obj));
    return () => void this.#handlers.delete(handler);
  }

  /** silence stops all notifications for good (the reflector was stopped). */
  silence(): void {
    this.#silenced = true;
  }

  #set(key: string, obj: KubeObject, old: KubeObject | undefined): void {
    // A new key lives as long as the object: store it flat (see flat-string.ts).
    this.#objects.set(old === undefined ? flatString(key) : key, obj);
    if (old === undefined) this.#emit((h) => h.add?.(obj));
    else this.#emit((h) => h.update?.(obj, old));
  }

  #keyOf(obj: KubeObject): string {
    return cacheKey(this.#clusterOf(obj), obj.metadata.namespace, obj.metadata.name ?? '');
  }

  #emit(notify: (handler: InformerHandler) => void): void {
    for (const handler of [...this.#handlers]) this.#call(handler, notify);
  }

  // One failing handler must neither stop the reflector nor starve the other handlers.
  #call(handler: InformerHandler, notify: (handler: InformerHandler) => void): void {
    if (this.#silenced || !this.#handlers.has(handler)) return;
    try {
      notify(handler);
    } catch (err) {
      this.#log.error({ err }, 'informer handler failed');
    }
  }
}

/**
 * sameVersion: one object at one version. The UID counts too: a source that restarted empty counts
 * versions from the start again, so a new object can carry the version of an old one of its name.
 */
function sameVersion(a: KubeObject, b: KubeObject): boolean {
  return a.metadata.resourceVersion === b.metadata.resourceVersion && a.metadata.uid === b.metadata.uid;
}

