// The object store behind a reflector, and the handlers it notifies. Objects are kept by logical
// cluster, namespace and name, so same-named objects of two kcp logical clusters stay apart — the
// reason cachegate does not use client-node's ListWatch cache.

import type { Logger } from 'pino';
import type { KubeObject } from '../apimachinery/object-meta.js';
import { LoopTurns } from '../apimachinery/loop-turns.js';
import { deepFreeze } from '../apimachinery/object-meta.js';
import { SharedValues } from '../apimachinery/shared-values.js';
import { ClusterObjects } from './cluster-objects.js';

/** InformerHandler receives changes to the store; update gets the new object first, then the old one. */
export interface InformerHandler {
  add?(obj: KubeObject): void;
  update?(obj: KubeObject, old: KubeObject): void;
  delete?(obj: KubeObject): void;
}

/** InformerCache holds deep-frozen objects by cluster, namespace and name, and tells handlers about changes. */
export class InformerCache {
  readonly #objects: ClusterObjects;
  readonly #handlers = new Set<InformerHandler>();
  readonly #clusterOf: (obj: KubeObject) => string;
  readonly #log: Logger;
  #silenced = false;
  readonly #shared: SharedValues;

  /** shared: the values this informer's objects repeat are kept once (the source's list pages use the same table). */
  constructor(clusterOf: (obj: KubeObject) => string, log: Logger, shared = new SharedValues()) {
    this.#clusterOf = clusterOf;
    this.#shared = shared;
    this.#objects = new ClusterObjects(clusterOf);
    this.#log = log;
  }

  /** get reads one object. */
  get(cluster: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.#objects.get(cluster, namespace ?? '', name);
  }

  /** values iterates over every object. */
  values(): IterableIterator<KubeObject> {
    return this.#objects.values();
  }

  /** size is the number of objects. */
  get size(): number {
    return this.#objects.size;
  }

  /** upsert stores an added or modified object (frozen, its repeated values shared) and tells handlers whether it is new. */
  upsert(obj: KubeObject): void {
    this.#set(this.#shared.freeze(obj));
  }

  /** adopt stores equal in place of stored, if stored is the object held for its key (see SourceView.adopt); no handler is told. */
  adopt(stored: KubeObject, equal: KubeObject): void {
    if (this.#objects.find(stored) === stored) this.#objects.set(equal);
  }

  /** remove forgets a deleted object and tells handlers, with the object's last state. */
  remove(obj: KubeObject): void {
    const frozen = deepFreeze(obj);
    this.#objects.delete(frozen);
    this.#emit((h) => h.delete?.(frozen));
  }

  /**
   * replace makes the store equal to a fresh list: new objects are added, changed ones (another
   * resourceVersion or another UID) updated, vanished ones deleted; unchanged ones raise no event.
   * A list of a million objects takes seconds to apply, so the work gives the event loop a turn
   * every TURN_BUDGET_MS (readers meanwhile see each object either before or after, never torn).
   */
  async replace(items: Iterable<KubeObject>): Promise<void> {
    if (this.#objects.size === 0) return this.#fill(items);
    const turns = new LoopTurns();
    const fresh = new ClusterObjects(this.#clusterOf);
    for (const item of items) {
      fresh.set(deepFreeze(item));
      if (turns.spent()) await turns.nextTurn();
    }
    for (const old of [...this.#objects.values()]) {
      if (fresh.find(old) !== undefined) continue;
      this.#objects.delete(old);
      this.#emit((h) => h.delete?.(old));
      if (turns.spent()) await turns.nextTurn();
    }
    for (const obj of fresh.values()) {
      const old = this.#objects.find(obj);
      if (old !== undefined && sameVersion(old, obj)) continue;
      this.#set(obj);
      if (turns.spent()) await turns.nextTurn();
    }
  }

  /**
   * addHandler registers a handler, which first gets `add` for every object held now, as
   * client-go's AddEventHandler replays its store: a handler that joins while a list is being
   * applied (replace yields between slices) then sees the objects applied before it joined too.
   */
  addHandler(handler: InformerHandler): () => void {
    this.#handlers.add(handler);
    for (const obj of [...this.#objects.values()]) this.#call(handler, (h) => h.add?.(obj));
    return () => void this.#handlers.delete(handler);
  }

  /** silence stops all notifications for good (the reflector was stopped). */
  silence(): void {
    this.#silenced = true;
  }

  /**
   * fill is replace into an empty store, as for the first list: every object is an add, so no second
   * map of the list is built to compare against (at a million objects that map took a third of
   * replace's time, and was a million entries of garbage).
   */
  async #fill(items: Iterable<KubeObject>): Promise<void> {
    const turns = new LoopTurns();
    for (const item of items) {
      this.#set(deepFreeze(item));
      if (turns.spent()) await turns.nextTurn();
    }
  }

  #set(obj: KubeObject): void {
    const old = this.#objects.set(obj);
    if (old === undefined) this.#emit((h) => h.add?.(obj));
    else this.#emit((h) => h.update?.(obj, old));
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

