// What the replication controller needs of the source side: an informer's store and events.
// The kube module's Reflector satisfies it; the controller never imports the kube module.

import type { KubeObject } from '../../apimachinery/object-meta.js';

/** SourceHandlers are the informer callbacks; update carries the previous version. */
export interface SourceHandlers {
  add?(obj: KubeObject): void;
  update?(obj: KubeObject, old: KubeObject): void;
  delete?(obj: KubeObject): void;
}

/** SourceView is a synced, read-only view of the source objects of one GVR. */
export interface SourceView {
  get(cluster: string, namespace: string, name: string): KubeObject | undefined;
  list(): Iterable<KubeObject>;
  /** size is the number of objects held. */
  readonly size: number;
  /** addHandler replays every stored object as add, then delivers changes; it returns the remover. */
  addHandler(handlers: SourceHandlers): () => void;
  hasSynced(): boolean;
  /**
   * adopt keeps equal in place of stored, if stored is still the view's object for its key: the
   * caller vouches that both are frozen and deep-equal (a copy's spec.raw read back from a durable
   * store, and the listed original it was made from), so one tree stays in memory, not two. No
   * handler hears of it: nothing changed.
   */
  adopt(stored: KubeObject, equal: KubeObject): void;
}
